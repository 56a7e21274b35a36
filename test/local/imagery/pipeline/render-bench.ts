/**
 * Timing of full generations at the spec's sizes (not a test: `npx tsx
 * test/local/imagery/pipeline/render-bench.ts`, or import `benchRender` from the project bench).
 * Prints wall time per case and the worker time per job kind.
 */
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { RenderRequest } from "../../../../src/local/imagery/contract.ts";
import { createImageryPool } from "../../../../src/local/imagery/pipeline/render-pool.ts";

export interface BenchCase {
  name: string;
  request: RenderRequest;
}

export interface BenchResult {
  name: string;
  /** Wall-clock time of the generation. */
  seconds: number;
  /** CPU time of the whole process (all threads) during it. */
  cpuSeconds: number;
  workerSeconds: Record<string, number>;
}

const common = {
  negativeText: null,
  enhancePrompt: false,
  seed: 7,
  look: "photoreal",
  softLines: false,
  thumbSize: { width: 720, height: 360 },
  depthSize: { width: 2048, height: 1024 },
} as const;

export const BENCH_CASES: BenchCase[] = [
  {
    name: "Model 4 enhanced 4096x2048",
    request: {
      ...common,
      prompt: "snowy mountains above a lake at sunset",
      model: 4,
      variant: "enhanced",
      size: { width: 4096, height: 2048 },
    },
  },
  {
    name: "Model 3 8192x4096",
    request: { ...common, prompt: "snowy mountains above a lake at sunset", model: 3, variant: null, size: { width: 8192, height: 4096 } },
  },
];

export async function benchRender(cases: BenchCase[] = BENCH_CASES): Promise<BenchResult[]> {
  const pool = createImageryPool();
  const results: BenchResult[] = [];
  try {
    for (const c of cases) {
      const dir = join(tmpdir(), `skybox-bench-${process.pid}`);
      pool.stats.reset();
      const start = performance.now();
      const cpu = process.cpuUsage();
      await pool.generate(c.request, dir);
      const seconds = (performance.now() - start) / 1000;
      const used = process.cpuUsage(cpu);
      const cpuSeconds = (used.user + used.system) / 1e6;
      const workerSeconds = Object.fromEntries([...pool.stats.byKind].map(([k, s]) => [k, Math.round(s.ms) / 1000]));
      results.push({ name: c.name, seconds, cpuSeconds, workerSeconds });
      rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    await pool.close();
  }
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const r of await benchRender()) {
    console.log(`${r.name}: ${r.seconds.toFixed(1)} s wall, ${r.cpuSeconds.toFixed(1)} s CPU`, JSON.stringify(r.workerSeconds));
  }
}
