/**
 * Times every export type at its default options and full size against a synthetic
 * 8192x4096 stored skybox (2048x1024 distances), each in its own process so that its
 * peak RSS is its own. Not a test; run: npx tsx test/local/imagery/export/export-timing.ts
 * Optional: a list of export type keys to time only those.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ExportRequest } from "../../../../src/local/imagery/contract.ts";
import { EXPORT_TYPES, type ExportTypeKey } from "../../../../src/api/reference.ts";
import { exportSkybox } from "../../../../src/local/imagery/export/export-skybox.ts";
import { makeStoredSkybox } from "./stored-skybox-fixture.ts";

const FIXTURE_DIR = join(tmpdir(), "skybox-export-timing-8k-grain");
const OUT_DIR = join(tmpdir(), "skybox-export-timing-out");

/** Default size of each type for a Model 3 skybox (spec: 8K; depth maps 2K; GLB medium). */
const CASES: { type: ExportTypeKey; size: { width: number; height: number }; note?: string }[] = [
  ...EXPORT_TYPES.map(({ key }) => ({
    type: key,
    size: key === "depth-map-png" ? { width: 2048, height: 1024 } : { width: 8192, height: 4096 },
  })),
  { type: "equirectangular-jpg", size: { width: 16384, height: 8192 }, note: "16K" },
  { type: "equirectangular-png", size: { width: 16384, height: 8192 }, note: "16K" },
  { type: "hdri-exr", size: { width: 16384, height: 8192 }, note: "16K" },
  { type: "cube-map-default-png", size: { width: 16384, height: 8192 }, note: "16K" },
];

async function child(index: number): Promise<void> {
  const c = CASES[index]!;
  const req: ExportRequest = { from: FIXTURE_DIR, type: c.type, size: c.size, out: join(OUT_DIR, `${index}-${c.type}`), imageScale: 1 };
  if (c.type === "3d-mesh-glb" && c.note === "epic") req.meshQuality = "epic";
  const before = process.memoryUsage().rss;
  const start = performance.now();
  const result = await exportSkybox(req);
  const ms = performance.now() - start;
  // VmHWM is this process's own peak; getrusage's maxRSS would inherit the parent's at fork.
  const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))!;
  const peak = Number(hwm[1]) * 1024;
  const fileMB = statSync(result.path).size / 1e6;
  rmSync(result.path);
  console.log(JSON.stringify({ ms, peakMB: peak / 1e6, baseMB: before / 1e6, fileMB }));
}

async function main(): Promise<void> {
  if (!existsSync(join(FIXTURE_DIR, "distance.f32"))) {
    const start = performance.now();
    const fixture = await makeStoredSkybox(8192, 2048, 0.2);
    rmSync(FIXTURE_DIR, { recursive: true, force: true });
    execFileSync("mv", [fixture.dir, FIXTURE_DIR]);
    console.log(`fixture built in ${((performance.now() - start) / 1000).toFixed(1)} s`);
  }
  mkdirSync(OUT_DIR, { recursive: true });
  CASES.push({ type: "3d-mesh-glb", size: { width: 0, height: 0 }, note: "epic" });
  const only = process.argv.slice(2);
  console.log("type | size | seconds | peak RSS MB | file MB");
  for (let i = 0; i < CASES.length; i++) {
    const c = CASES[i]!;
    if (only.length && !only.includes(c.type)) continue;
    const out = execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), "--child", String(i)], {
      encoding: "utf8",
    });
    const r = JSON.parse(out.trim().split("\n").pop()!) as { ms: number; peakMB: number; fileMB: number };
    console.log(
      `${c.type}${c.note ? ` (${c.note})` : ""} | ${c.size.width}x${c.size.height} | ${(r.ms / 1000).toFixed(2)} | ${r.peakMB.toFixed(0)} | ${r.fileMB.toFixed(1)}`,
    );
  }
}

if (process.argv[2] === "--child") {
  CASES.push({ type: "3d-mesh-glb", size: { width: 0, height: 0 }, note: "epic" });
  await child(Number(process.argv[3]));
} else {
  await main();
}
