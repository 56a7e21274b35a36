import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeRgbe, rgbeHeader } from "../../../../src/local/imagery/formats/rgbe.ts";
import { maxScanlineBytes } from "../../../../src/local/imagery/formats/rgbe-scanline.ts";
import { warmUp } from "../../../../src/local/imagery/pipeline/warm-up.ts";
import { writeRgbe } from "../../../../src/local/imagery/formats/rgbe-pixel.ts";
import { createImageryPool, type ImageryPool } from "../../../../src/local/imagery/pipeline/render-pool.ts";

let pool: ImageryPool;
beforeAll(() => {
  pool = createImageryPool({ size: 2 });
});
afterAll(() => pool.close());

describe("imagery pool", () => {
  it("runs jobs in worker threads (TypeScript sources, inside vitest)", async () => {
    expect(pool.size).toBe(2);
    // A render keeps its radiance as RGBE bytes; its scanlines are those of the file of the same floats.
    const rgb = new Float32Array(16 * 8 * 3);
    for (let i = 0; i < rgb.length; i++) rgb[i] = (i % 7) * 0.37 + (i % 5) * 40;
    const bytes = new Uint8Array(new SharedArrayBuffer(16 * 8 * 4));
    for (let p = 0; p < 16 * 8; p++) writeRgbe(rgb[p * 3]!, rgb[p * 3 + 1]!, rgb[p * 3 + 2]!, bytes, p * 4);
    // Each job writes into its own span of shared memory and answers with the length written.
    const outs = [0, 1, 2, 3].map(() => new Uint8Array(new SharedArrayBuffer(8 * maxScanlineBytes(16))));
    const lengths = await Promise.all(outs.map((out) => pool.run({ kind: "encode-rgbe", width: 16, radiance: bytes, rows: [0, 8], out })));
    const file = encodeRgbe(16, 8, rgb).subarray(rgbeHeader(16, 8).length);
    outs.forEach((out, i) => expect(Buffer.from(out.subarray(0, lengths[i] as number)).equals(Buffer.from(file))).toBe(true));
    expect(pool.stats.byKind.get("encode-rgbe")?.jobs).toBe(4);
  });

  it("reports a job's error and keeps working", async () => {
    await expect(pool.run({ kind: "encode-rgbe", width: 64, radiance: new Uint8Array(16), rows: [0, 64], out: new Uint8Array(64 * 64 * 4) })).rejects.toThrow(/smaller/);
    const ok = await pool.run({ kind: "encode-rgbe", width: 1, radiance: new Uint8Array(4), rows: [0, 1], out: new Uint8Array(maxScanlineBytes(1)) });
    expect(ok).toBe(4);
  });

  it("runs exports in a worker (failing cleanly for a missing skybox)", async () => {
    const request = { from: "/nonexistent/skybox", type: "equirectangular-jpg", size: { width: 64, height: 32 }, out: "/nonexistent/out", imageScale: 1 } as const;
    await expect(pool.runExport(request)).rejects.toThrow();
  });

  it("reuses its planes across renders: the next render takes no new memory and draws the same pixels on reused planes", async () => {
    const req = (prompt: string, seed: number, width = 512, height = 256) => ({
      prompt, negativeText: null, enhancePrompt: false, seed, look: "anime" as const, model: 3 as const, variant: null, softLines: false,
      size: { width, height }, thumbSize: { width: 64, height: 32 }, depthSize: { width: width / 2, height: height / 2 },
    });
    const own = createImageryPool({ size: 2 });
    const dirs = [0, 1, 2, 3].map(() => mkdtempSync(join(tmpdir(), "plane-reuse-")));
    try {
      await own.generate(req("city by a lake at sunset with clouds", 3), dirs[0]!);
      const bytes = own.planes.bytes;
      expect(bytes).toBeGreaterThan(512 * 256 * 4);
      await own.generate(req("alpine lake at noon under a clear sky", 9), dirs[1]!);
      await own.generate(req("city by a lake at sunset with clouds", 3), dirs[2]!);
      await own.generate(req("alpine lake at noon under a clear sky", 9, 256, 128), dirs[3]!);
      expect(own.planes.bytes).toBe(bytes);
      expect(own.planes.reuses).toBeGreaterThan(30);
      // Planes another scene wrote read as zeros again where a pass writes only some pixels
      // (water reflections, the sun disk): the files are those of the first, fresh render.
      for (const name of ["image.jpg", "radiance.hdr", "distance.f32", "depth.png"]) {
        expect(readFileSync(join(dirs[2]!, name)).equals(readFileSync(join(dirs[0]!, name))), name).toBe(true);
      }
    } finally {
      await own.close();
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    }
  });

  it("changes no V8 flag and forces no collection in the host process", () => {
    const root = fileURLToPath(new URL("../../../../src/local/", import.meta.url));
    const sources = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((f) => /\.(ts|mjs)$/.test(f));
    for (const file of sources) expect(readFileSync(join(root, file), "utf8"), file).not.toMatch(/setFlagsFromString|expose-gc|\bgc\(\)|runInNewContext/);
  });

  it("keeps a process that only awaits a render alive until the render ends, and until close() settles", () => {
    const dir = mkdtempSync(join(tmpdir(), "render-alone-"));
    try {
      const out = execFileSync(process.execPath, ["--import", "tsx", fileURLToPath(new URL("./render-alone.ts", import.meta.url)), dir], { encoding: "utf8" });
      expect(out).toContain("rendered");
      // Before, the process ended inside close() (exit code 13: its last await never settled).
      expect(out).toContain("closed");
      expect(readdirSync(dir)).toContain("image.jpg");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("warms the workers up with a small render through all of them, leaving no folder behind, failed or not", async () => {
    const root = mkdtempSync(join(tmpdir(), "warm-up-root-"));
    pool.stats.reset();
    await warmUp(pool, root);
    expect(pool.stats.byKind.get("render-rows")?.jobs).toBeGreaterThanOrEqual(pool.size);
    expect(readdirSync(root)).toEqual([]);
    await expect(warmUp({ generate: () => Promise.reject(new Error("imagery pool is closed")) }, root)).rejects.toThrow(/closed/);
    expect(readdirSync(root)).toEqual([]);
    rmSync(root, { recursive: true });
  });

  it("removes the warm-up folders of processes killed while warming up, not those of processes still running", async () => {
    const root = mkdtempSync(join(tmpdir(), "warm-up-root-"));
    // A process killed with SIGKILL during its warm-up: its folder (files half written) stays behind.
    const killed = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"]);
    const gone = new Promise((resolve) => killed.once("exit", resolve));
    killed.kill("SIGKILL");
    await gone;
    mkdirSync(join(root, `babylon-skybox-warm-up-${killed.pid}-abc123`));
    writeFileSync(join(root, `babylon-skybox-warm-up-${killed.pid}-abc123`, "image.jpg"), "half");
    mkdirSync(join(root, `babylon-skybox-warm-up-${process.pid}-running`));
    mkdirSync(join(root, "someone-elses-folder"));
    await warmUp({ generate: async () => ({ enhancedPrompt: null }) }, root);
    expect(readdirSync(root).sort()).toEqual([`babylon-skybox-warm-up-${process.pid}-running`, "someone-elses-folder"]);
    rmSync(root, { recursive: true });
  });

  it("refuses work once closed", async () => {
    const p = createImageryPool({ size: 1 });
    await p.close();
    await expect(p.run({ kind: "encode-rgbe", width: 1, radiance: new Uint8Array(4), rows: [0, 1], out: new Uint8Array(maxScanlineBytes(1)) })).rejects.toThrow(/closed/);
  });
});
