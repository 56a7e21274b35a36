import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { EXPORT_TYPES, IMAGE_SIZES } from "../../src/api/reference.ts";
import { defaultResolution } from "../../src/api/rules/export-rules.ts";
import type { RenderRequest, Size } from "../../src/local/imagery/contract.ts";
import type { RenderProcessStats } from "../../src/local/imagery/pipeline/render-host-child.ts";
import { RenderHost } from "../../src/local/imagery/pipeline/render-host.ts";
import { coreUsage } from "./core-usage.ts";
import { type Floor, imageryFloor } from "./imagery-floor.ts";
import { devMemoryBench } from "./dev-memory-bench.ts";
import { treeRss } from "./process-usage.ts";
import { renderEndToEndBench } from "./render-e2e-bench.ts";

const PROMPT = "alpine lake at sunset with snowy mountains";
/** Runs of each generation (the median is reported); SKYBOX_BENCH_RUNS overrides. */
const RUNS = Number(process.env.SKYBOX_BENCH_RUNS ?? 3);

interface Case {
  name: string;
  model: 3 | 4;
  variant: RenderRequest["variant"];
}

const CASES: Case[] = [
  { name: "Model 4 standard", model: 4, variant: "standard" },
  { name: "Model 4 enhanced", model: 4, variant: "enhanced" },
  { name: "Model 3", model: 3, variant: null },
];

const request = (c: Case, size: Size = c.model === 4 ? IMAGE_SIZES.model4 : IMAGE_SIZES.model3): RenderRequest => ({
  prompt: PROMPT,
  negativeText: null,
  enhancePrompt: false,
  seed: 1,
  look: "photoreal",
  model: c.model,
  variant: c.variant,
  softLines: false,
  size,
  thumbSize: IMAGE_SIZES.thumb,
  depthSize: IMAGE_SIZES.depth,
});

/** One generation: wall time, CPU of every thread by what it did, each core's busy share. */
interface Run {
  seconds: number;
  cpu: number;
  phases: [string, number][];
  cores: number[] | null;
}

/** CPU seconds of this process (the host: it only sends the request) and of the render process, since `before`. */
function cpuSince(before: { host: NodeJS.CpuUsage; child: RenderProcessStats }, child: RenderProcessStats): number {
  const host = process.cpuUsage(before.host);
  return (host.user + host.system) / 1e6 + (child.cpuMs - before.child.cpuMs) / 1000;
}

async function generation(host: RenderHost, req: RenderRequest, dir: string): Promise<Run> {
  const before = { host: process.cpuUsage(), child: await host.stats() };
  const usage = coreUsage();
  const t0 = performance.now();
  await host.generate(req, dir);
  const seconds = (performance.now() - t0) / 1000;
  const after = await host.stats();
  const cpu = cpuSince(before, after);
  const earlier = new Map(before.child.byKind);
  const phases: [string, number][] = after.byKind.map(([kind, s]) => {
    const e = earlier.get(kind);
    return [kind, ((s.cpuMs ?? s.ms) - (e ? (e.cpuMs ?? e.ms) : 0)) / 1000];
  });
  const workers = phases.reduce((sum, [, s]) => sum + s, 0);
  const { mainThreadCpuMs: main0 } = before.child;
  const main = main0 === null || after.mainThreadCpuMs === null ? null : (after.mainThreadCpuMs - main0) / 1000;
  if (main !== null) phases.push(["coordinating thread", main], ["sharp, other threads and the host", Math.max(0, cpu - workers - main)]);
  return { seconds, cpu, phases: phases.filter(([, s]) => s > 0), cores: usage() };
}

const s2 = (n: number) => n.toFixed(2);
const percent = (n: number) => `${Math.round(n * 100)}%`;

function floorLine(label: string, f: Floor, cores: number): string {
  return `${label}: JPEG encode ${s2(f.jpeg)} s + (analytic sky pass ${s2(f.sky)} s + RGBE packing ${s2(f.rgbe)} s) / ${cores} cores = ${s2(f.total)} s`;
}

async function benchCase(host: RenderHost, c: Case, floor: Floor, work: string): Promise<string> {
  const req = request(c);
  const runs: Run[] = [];
  // Resident memory of this process and the render process after each run: it stays level from run to run.
  const rssAfter: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const dir = join(work, `${c.model}-${c.variant}-${i}`);
    mkdirSync(dir);
    runs.push(await generation(host, req, dir));
    rssAfter.push(treeRss(process.pid));
    if (i > 0) rmSync(dir, { recursive: true, force: true });
  }
  const sorted = [...runs].sort((a, b) => a.seconds - b.seconds);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const { width, height } = req.size;
  const cores = median.cores
    ? `cores busy over the render: ${median.cores.map((u, i) => `cpu${i} ${percent(u)}`).join(", ")}`
    : "cores: not measured here";
  return [
    `${c.name} ${width}x${height} + thumb + depth: ${s2(median.seconds)} s median of ${runs.map((r) => s2(r.seconds)).join(", ")} = ${(median.seconds / floor.total).toFixed(1)}x the floor`,
    `  ${s2(median.cpu)} CPU-s (${(median.cpu / median.seconds).toFixed(2)} cores kept busy): ${median.phases.map(([k, s]) => `${k} ${s2(s)}`).join(", ")}`,
    `  ${cores}`,
    `  RSS after each run (host and render process): ${rssAfter.map((b) => (b / 2 ** 20).toFixed(0)).join(", ")} MB`,
  ].join("\n");
}

/**
 * Imagery figures at the spec's full sizes on this machine: the floor (what any renderer
 * pays here), Model 4 and Model 3 generation time (panorama, thumbnail, depth) against
 * it with CPU time by phase and each core's use, each export type at its default options,
 * and peak memory, all through the render host as the service renders (its render process
 * counted in CPU and memory). Medians of RUNS runs after a warm-up; the load average before
 * says how busy the machine was. Then what users wait for and what their machine holds: the
 * end-to-end figures of render-e2e-bench.ts, on a `babylon-skybox local` process of their
 * own, and the memory of `npm run dev` (dev-memory-bench.ts).
 */
export async function imageryBench(): Promise<string[]> {
  const host = new RenderHost();
  const work = mkdtempSync(join(tmpdir(), "skybox-imagery-bench-"));
  let peak = 0;
  // Sampled: the host and its render process are two processes, whose peaks need not coincide.
  const sampler = setInterval(() => (peak = Math.max(peak, treeRss(process.pid))), 50);
  const out: string[] = [];
  try {
    await host.ready();
    const { workers } = await host.stats();
    out.push(
      `worker threads: ${workers} in the render process on ${availableParallelism()} cores; load average before: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")} (1, 5, 15 min)`,
    );
    const floors = {
      3: await imageryFloor(IMAGE_SIZES.model3.width, IMAGE_SIZES.model3.height, workers),
      4: await imageryFloor(IMAGE_SIZES.model4.width, IMAGE_SIZES.model4.height, workers),
    };
    out.push(floorLine(`floor Model 3 ${IMAGE_SIZES.model3.width}x${IMAGE_SIZES.model3.height}`, floors[3], workers));
    out.push(floorLine(`floor Model 4 ${IMAGE_SIZES.model4.width}x${IMAGE_SIZES.model4.height}`, floors[4], workers));
    // Warm-up, as a running service is after its first generations: workers start, modules
    // load, and every path (the grids used from 2048 wide on) gets optimised.
    for (const c of CASES) {
      const warm = join(work, `warm-${c.model}-${c.variant}`);
      mkdirSync(warm);
      await host.generate(request(c, { width: 2048, height: 1024 }), warm);
    }
    for (const c of CASES) out.push(await benchCase(host, c, floors[c.model], work));
    const m3 = join(work, "3-null-0");
    for (const type of EXPORT_TYPES) {
      const resolution = defaultResolution(type.key, 3) ?? { width: 2048, height: 1024, name: "-" };
      const before = { host: process.cpuUsage(), child: await host.stats() };
      const t0 = performance.now();
      await host.runExport({
        from: m3,
        type: type.key,
        size: { width: resolution.width, height: resolution.height },
        out: join(work, `export-${type.id}`),
        imageScale: 1,
      });
      const ms = performance.now() - t0;
      const cpu = cpuSince(before, await host.stats());
      out.push(
        `export ${type.key.padEnd(22)} (${resolution.name}, Model 3 defaults): ${s2(ms / 1000)} s (${((cpu * 1000) / ms).toFixed(2)} cores)`,
      );
    }
    const { maxRss } = await host.stats();
    out.push(
      `peak memory of this bench (its own process, which also holds the floor's images, and the render process, sampled every 50 ms): ${(peak / 2 ** 20).toFixed(0)} MB; the render process alone at most ${(maxRss / 2 ** 20).toFixed(0)} MB (the service's own figures, against the 600 MB goal, are in the end-to-end lines below)`,
    );
  } finally {
    clearInterval(sampler);
    await host.close();
    rmSync(work, { recursive: true, force: true });
  }
  out.push(...(await renderEndToEndBench()), ...(await devMemoryBench()));
  return out;
}
