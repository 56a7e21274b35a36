/**
 * Figures of applySkybox in Chromium (SwiftShader WebGL2, this machine's CPU): a cold apply
 * split into export wait, download and decode + prefilter; re-applies of the same skybox
 * from IndexedDB (memory cache cleared, and after a reload) and from the engine's environment
 * cache in memory, each with its speed-up over cold (lighting only, then every part); what
 * the first apply's background bake costs the page; our texture path against plain
 * `new HDRCubeTexture(url)` + HDRFiltering at the same size and quality on the same file.
 * Medians of a few runs; GPU work is waited for with a pixel read-back.
 */
import { join } from "node:path";
import type { Page } from "playwright-core";
import { createSkyboxClient, type Generation, type SkyboxClient } from "../../src/api/index.ts";
import { launchBrowser, servePages } from "../browser/harness.ts";
import { median } from "./percentiles.ts";

const SIZE = 256;
const QUALITY = 64;
const RUNS = 5;
const RELOADS = 3;

const ms = (x: number) => `${x < 10 ? x.toFixed(1) : Math.round(x)} ms`;

export async function sceneBench(): Promise<string[]> {
  // Images at 1/4 of their size: a 1K HDRI export is 256 x 128, the panorama 2048 wide.
  const pages = await servePages({ root: join(import.meta.dirname, "../browser/pages"), local: { imageScale: 0.25, speed: 50 } });
  const browser = await launchBrowser();
  try {
    const client = createSkyboxClient({ baseUrl: `${pages.url}/skybox` });
    const record = await completeGeneration(client, "sunset desert over dunes");
    const page = await browser.newPage();
    await open(page, pages.url);
    const ours = (mode: "none" | "indexeddb" | "memory", allParts = false) =>
      page.evaluate(([r, s, q, m, a]) => window.skyboxBench.ours(r, s, q, m, a), [record, SIZE, QUALITY, mode, allParts] as const);
    // The very first apply requests an export nobody asked for yet: the only real wait.
    const first = await ours("none");
    const hdrUrl = await hdrExportUrl(client, record);
    const plain = () => page.evaluate(([u, s, q]) => window.skyboxBench.plain(u, s, q), [hdrUrl, SIZE, QUALITY] as const);
    // Warm-up: shader compilation and the first prefilter pay once per page.
    await plain();

    const cold: { total: number; marks: Record<string, number> }[] = [];
    const plainRuns: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      cold.push(await ours("none"));
      plainRuns.push(await plain());
    }
    const split = cold.map(({ total, marks }) => {
      const download = marks.downloading ?? 0;
      const prefilter = marks.prefiltering ?? download;
      return {
        total,
        exportWait: download - (marks["requesting-export"] ?? 0),
        download: prefilter - download,
        decode: total - prefilter,
        texturePath: total - download,
      };
    });
    const pick = (k: keyof (typeof split)[number]) => median(split.map((s) => s[k]));
    const coldMs = pick("total");

    // The first apply with the cache keeps the environment in memory and bakes it in the background.
    await ours("memory");
    const bake = await page.evaluate(() => window.skyboxBench.bakeLoad(false));
    const envBake = await page.evaluate(() => window.skyboxBench.bakeLoad(true));
    const runs = async (mode: "indexeddb" | "memory") => {
      const out: number[] = [];
      for (let i = 0; i < RUNS; i++) out.push((await ours(mode)).total);
      return median(out);
    };
    const memory = await runs("memory");
    const indexeddb = await runs("indexeddb");
    const reloaded: number[] = [];
    for (let i = 0; i < RELOADS; i++) {
      await open(page, pages.url, false);
      reloaded.push((await ours("indexeddb")).total);
    }
    const afterReload = median(reloaded);
    // Every part: the dome's panorama and the GLB's textures are kept too; the GLB's meshes are parsed again.
    const allParts = async (mode: "none" | "memory") => {
      const out: number[] = [];
      for (let i = 0; i < RUNS; i++) out.push((await ours(mode, true)).total);
      return median(out);
    };
    await ours("memory", true); // fills the cache with the downloads and the dome
    const [allCold, allMemory] = [await allParts("none"), await allParts("memory")];

    const ratio = pick("texturePath") / median(plainRuns);
    const speedUp = (x: number) => `${(coldMs / x).toFixed(1)}x faster than cold`;
    return [
      `cube ${SIZE}, HDRFiltering quality ${QUALITY}, hdri-hdr 1K export (256 x 128 at image scale 1/4), lighting only, median of ${RUNS}`,
      `cold apply: ${ms(coldMs)} = export request and wait ${ms(pick("exportWait"))} + download ${ms(pick("download"))} + decode and prefilter ${ms(pick("decode"))} (record passed in; the export catalog and the request are part of the wait)`,
      `first apply of a new skybox (export rendered on request, local service at speed 50, first shaders): ${ms(first.total)}, of which export request and wait ${ms((first.marks.downloading ?? 0) - (first.marks["requesting-export"] ?? 0))}`,
      `re-apply from IndexedDB (baked texels, memory cache cleared): ${ms(indexeddb)} = ${speedUp(indexeddb)}; after a page reload (median of ${RELOADS}): ${ms(afterReload)} = ${speedUp(afterReload)}`,
      `re-apply from the environment cache in memory: ${ms(memory)} = ${speedUp(memory)} (target >= 10x)`,
      `every part (lighting, panorama dome, GLB backdrop): cold ${ms(allCold)}, re-apply from memory ${ms(allMemory)} = ${(allCold / allMemory).toFixed(1)}x faster (the GLB backdrop's meshes are parsed again from the cached file; its textures are kept)`,
      `background bake of a first apply (baked texels at idle time): ${ms(bake.ms)} until stored, the page blocked ${ms(bake.worstBlockMs)} at most; Babylon's .env bake of the same texture: ${ms(envBake.ms)}, blocked ${ms(envBake.worstBlockMs)} at most`,
      `ours vs plain new HDRCubeTexture(url) + HDRFiltering, download to ready: ${ms(pick("texturePath"))} vs ${ms(median(plainRuns))} = ${ratio.toFixed(2)}x (target <= 1.10)`,
      `cold / cached: ${(coldMs / memory).toFixed(1)}x from memory, ${(coldMs / indexeddb).toFixed(1)}x from IndexedDB`,
    ];
  } finally {
    await browser.close();
    await pages.close();
  }
}

async function open(page: Page, url: string, clearCache = true): Promise<void> {
  await page.goto(`${url}/bench.html`);
  await page.waitForFunction(() => Boolean(window.skyboxBench));
  await page.evaluate((clear) => window.skyboxBench.setup(clear), clearCache);
}

async function completeGeneration(client: SkyboxClient, prompt: string): Promise<Generation> {
  const style = (await client.styles()).find((s) => s.model_version !== "4")!;
  const { id } = await client.generate({ prompt, skybox_style_id: style.id });
  for (;;) {
    const record = await client.getGeneration(id);
    if (record.status === "complete") return record;
    if (record.status === "error" || record.status === "abort") throw new Error(`generation ${id} ended ${record.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The same export applySkybox requests by default (hdri-hdr, 1K, realism). */
async function hdrExportUrl(client: SkyboxClient, record: Generation): Promise<string> {
  let e = await client.requestExport({ skybox_id: record.obfuscated_id, type_id: 4, resolution_id: 1, hdri_mode_id: 2 }, { model: 3 });
  while (e.status !== "complete") {
    if (e.status === "error" || e.status === "abort") throw new Error(`export ${e.id} ended ${e.status}`);
    await new Promise((r) => setTimeout(r, 100));
    e = await client.getExport(e.id);
  }
  return e.file_url;
}

// `npx tsx test/bench/scene-bench.ts` prints the figures on their own.
if (process.argv[1] && import.meta.filename === process.argv[1]) {
  sceneBench().then(
    (lines) => console.log(lines.join("\n")),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
