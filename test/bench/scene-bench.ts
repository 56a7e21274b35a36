/**
 * Figures of applySkybox in Chromium (SwiftShader WebGL2, this machine's CPU): a cold apply
 * split into export wait, download and decode + prefilter; a cached re-apply (same page and
 * after a reload); our texture path against plain `new HDRCubeTexture(url)` + HDRFiltering
 * at the same size and quality on the same file. Medians of a few runs; GPU work is waited
 * for with a pixel read-back.
 */
import { join } from "node:path";
import type { Page } from "playwright-core";
import { createSkyboxClient, type Generation, type SkyboxClient } from "../../src/api/index.ts";
import { launchBrowser, servePages } from "../browser/harness.ts";

const SIZE = 256;
const QUALITY = 64;
const RUNS = 5;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${Math.round(x)} ms`;

export async function sceneBench(): Promise<string[]> {
  // Images at 1/4 of their size: a 1K HDRI export is 256 x 128, the panorama 2048 wide.
  const pages = await servePages({ root: join(import.meta.dirname, "../browser/pages"), local: { imageScale: 0.25, speed: 50 } });
  const browser = await launchBrowser();
  try {
    const client = createSkyboxClient({ baseUrl: `${pages.url}/skybox` });
    const record = await completeGeneration(client, "sunset desert over dunes");
    const page = await browser.newPage();
    await open(page, pages.url);
    // The very first apply requests an export nobody asked for yet: the only real wait.
    const first = await page.evaluate(([r, s, q]) => window.skyboxBench.ours(r, s, q, false), [record, SIZE, QUALITY] as const);
    const hdrUrl = await hdrExportUrl(client, record);
    const ours = (useCache: boolean) => page.evaluate(([r, s, q, c]) => window.skyboxBench.ours(r, s, q, c), [record, SIZE, QUALITY, useCache] as const);
    const plain = () => page.evaluate(([u, s, q]) => window.skyboxBench.plain(u, s, q), [hdrUrl, SIZE, QUALITY] as const);
    // Warm-up: shader compilation and the first prefilter pay once per page.
    await plain();

    const cold: { total: number; marks: Record<string, number> }[] = [];
    const plainRuns: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      cold.push(await ours(false));
      plainRuns.push(await plain());
    }
    const split = cold.map(({ total, marks }) => {
      const download = marks.downloading ?? 0;
      const prefilter = marks.prefiltering ?? download;
      return { total, exportWait: download - (marks["requesting-export"] ?? 0), download: prefilter - download, decode: total - prefilter, texturePath: total - download };
    });
    const pick = (k: keyof (typeof split)[number]) => median(split.map((s) => s[k]));

    await ours(true); // cold, fills the cache
    await page.evaluate(() => window.skyboxBench.whenCached());
    const cached: number[] = [];
    for (let i = 0; i < RUNS; i++) cached.push((await ours(true)).total);
    await open(page, pages.url, false);
    const afterReload = (await ours(true)).total;

    const ratio = pick("texturePath") / median(plainRuns);
    return [
      `cube ${SIZE}, HDRFiltering quality ${QUALITY}, hdri-hdr 1K export (256 x 128 at image scale 1/4), lighting only, median of ${RUNS}`,
      `cold apply: ${ms(pick("total"))} = export request and wait ${ms(pick("exportWait"))} + download ${ms(pick("download"))} + decode and prefilter ${ms(pick("decode"))} (record passed in; the export catalog and the request are part of the wait)`,
      `first apply of a new skybox (export rendered on request, local service at speed 50, first shaders): ${ms(first.total)}, of which export request and wait ${ms((first.marks.downloading ?? 0) - (first.marks["requesting-export"] ?? 0))}`,
      `cached re-apply (baked .env from IndexedDB): ${ms(median(cached))} in the same page, ${ms(afterReload)} after a reload`,
      `ours vs plain new HDRCubeTexture(url) + HDRFiltering, download to ready: ${ms(pick("texturePath"))} vs ${ms(median(plainRuns))} = ${ratio.toFixed(2)}x (target <= 1.10)`,
      `cold / cached: ${(pick("total") / median(cached)).toFixed(1)}x`,
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
  sceneBench().then((lines) => console.log(lines.join("\n")), (error) => {
    console.error(error);
    process.exit(1);
  });
}
