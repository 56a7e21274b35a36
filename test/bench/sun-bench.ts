/**
 * Figures of the sun detection: `detectSun` on 8K HDRIs (8192 x 4096) from the decoded
 * pixels, as `applySkybox` runs it once the export is decoded. The HDRIs are real exports of
 * the local service: skies rendered at 2048 wide and exported at 8K (the export resamples),
 * two noon suns, a low sunset sun and a night (no sun: the scan alone). Medians of several
 * runs on one thread; the decode (Babylon's Radiance reader), not counted, is reported
 * beside: it is why `applySkybox` finds the sun in a 1K export unless told otherwise. V8 in Node: the same engine as Chromium's, for a pure function.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { IMAGE_SIZES } from "../../src/api/reference.ts";
import { createImageryPool } from "../../src/local/imagery/pipeline/render-pool.ts";
import { detectSun } from "../../src/scene/sun/detect-sun.ts";
import { decodeHdr } from "../../src/scene/sun/hdr-pixels.ts";
import { ms, percentile } from "./percentiles.ts";

const RUNS = Number(process.env.SKYBOX_BENCH_RUNS ?? 7);
const SKIES = [
  { name: "noon", prompt: "clear desert at noon", seed: 1 },
  { name: "sunset", prompt: "clear desert dunes at sunset", seed: 7 },
  { name: "noon, another sun", prompt: "clear desert at noon", seed: 3 },
  { name: "night (no sun)", prompt: "moonlit night over the hills", seed: 7 },
];

export async function sunBench(): Promise<string[]> {
  const pool = createImageryPool({ size: 2 });
  const dir = mkdtempSync(join(tmpdir(), "skybox-sun-bench-"));
  const lines = [`detectSun on 8192 x 4096 hdri-hdr exports (rendered at 2048 wide), median of ${RUNS} runs, one thread:`];
  try {
    for (const sky of SKIES) {
      const at = join(dir, sky.name.replace(/\W+/g, "-"));
      const size = { width: 2048, height: 1024 };
      await pool.generate({ prompt: sky.prompt, negativeText: null, enhancePrompt: false, seed: sky.seed, look: "photoreal", model: 3, variant: null, softLines: false, size, thumbSize: IMAGE_SIZES.thumb, depthSize: IMAGE_SIZES.depth }, at);
      const file = await pool.runExport({ from: at, type: "hdri-hdr", hdriMode: "realism", size: { width: 8192, height: 4096 }, out: join(at, "hdri-8k"), imageScale: 1 });
      const bytes = new Uint8Array(readFileSync(file.path));
      let t0 = performance.now();
      const pixels = decodeHdr(bytes);
      const decode = performance.now() - t0;
      const times: number[] = [];
      let sun = detectSun(pixels);
      for (let i = 0; i < RUNS; i++) {
        t0 = performance.now();
        sun = detectSun(pixels);
        times.push(performance.now() - t0);
      }
      const found = sun ? `sun at ${((sun.elevation * 180) / Math.PI).toFixed(1)} deg up` : "no sun";
      lines.push(`  ${sky.name.padEnd(20)} ${ms(percentile(times, 50)).padStart(9)}  (min ${ms(Math.min(...times))}, max ${ms(Math.max(...times))}; ${found}; decode ${ms(decode)}, ${(bytes.length / 2 ** 20).toFixed(0)} MiB)`);
    }
    lines.push("target: 200 ms in the browser on these cores, from the decoded HDR");
  } finally {
    await pool.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return lines;
}
