import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { EXPORT_TYPES, IMAGE_SIZES } from "../../src/api/reference.ts";
import { defaultResolution } from "../../src/api/rules/export-rules.ts";
import type { RenderRequest } from "../../src/local/imagery/contract.ts";
import { createImageryPool } from "../../src/local/imagery/pipeline/render-pool.ts";

const request = (model: 3 | 4, prompt: string): RenderRequest => ({
  prompt, negativeText: null, enhancePrompt: false, seed: 1, look: "photoreal", model, variant: model === 4 ? "standard" : null, softLines: false,
  size: model === 4 ? IMAGE_SIZES.model4 : IMAGE_SIZES.model3, thumbSize: IMAGE_SIZES.thumb, depthSize: IMAGE_SIZES.depth,
});

/** Wall time of `work`, and how many of the machine's cores it kept busy on average. */
async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; cores: number; value: T }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await work();
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { ms, cores: (cpu.user + cpu.system) / 1000 / ms, value };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/**
 * Imagery figures at the spec's full sizes on this machine: generation time (panorama,
 * thumbnail, depth) of Model 4 and Model 3, each export type at its default options, the
 * cores kept busy, and peak memory.
 */
export async function imageryBench(): Promise<string[]> {
  const pool = createImageryPool();
  const work = mkdtempSync(join(tmpdir(), "skybox-imagery-bench-"));
  const out = [`worker threads: ${pool.size} on ${availableParallelism()} cores`];
  try {
    const dirs: Record<3 | 4, string> = { 3: join(work, "m3"), 4: join(work, "m4") };
    for (const model of [4, 3] as const) {
      mkdirSync(dirs[model]);
      const size = model === 4 ? IMAGE_SIZES.model4 : IMAGE_SIZES.model3;
      const t = await timed(() => pool.generate(request(model, "alpine lake at sunset with snowy mountains"), dirs[model]));
      out.push(`Model ${model} generation ${size.width}x${size.height} + thumb + depth: ${seconds(t.ms)} (${t.cores.toFixed(2)} cores busy)`);
    }
    for (const type of EXPORT_TYPES) {
      const resolution = defaultResolution(type.key, 3) ?? { width: 2048, height: 1024, name: "-" };
      const t = await timed(() =>
        pool.runExport({ from: dirs[3], type: type.key, size: { width: resolution.width, height: resolution.height }, out: join(work, `export-${type.id}`), imageScale: 1 }),
      );
      out.push(`export ${type.key.padEnd(22)} (${resolution.name}, Model 3 defaults): ${seconds(t.ms)} (${t.cores.toFixed(2)} cores)`);
    }
    out.push(`peak memory (RSS, main thread and workers): ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
  } finally {
    await pool.close();
    rmSync(work, { recursive: true, force: true });
  }
  return out;
}
