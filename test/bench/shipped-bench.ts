/**
 * Figures of shipping a skybox (Chromium, SwiftShader WebGL2, this machine's CPU): the bytes
 * of each file of a saved folder, the pane's kind (a baked `.env`) and `babylon-skybox
 * save`'s (a `.hdr`); and the time from `loadSkybox` to ready against `applySkybox`'s cold
 * apply (exports already rendered, nothing cached) and its re-apply from the cache. Every
 * part on (lighting, background, backdrop, sun), cube 256, quality 64; the folders come from
 * a plain static server (another origin, as a CDN). Medians of a few runs.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { base64ToBytes, createSkyboxClient } from "../../src/api/index.ts";
import { parseSavedSkybox } from "../../src/api/saved/saved-files.ts";
import type { SavedSkybox } from "../../src/api/saved/saved-skybox.ts";
import { runSaveCommand } from "../../src/cli/save-command.ts";
import { writeSavedFolder } from "../../src/dev-server/saved/write-saved-folder.ts";
import { launchBrowser, servePages } from "../browser/harness.ts";
import { startStaticServer } from "../helpers/static-server.ts";
import { complete, generate, openPage } from "../scene/scene-fixture.ts";
import { median } from "./percentiles.ts";

const RUNS = 3;
const PARTS = { lighting: { size: 256, quality: 64 }, backdrop: true, sun: true };
const ms = (x: number) => `${Math.round(x)} ms`;
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

export async function shippedBench(): Promise<string[]> {
  // Images at 1/4 of their size (a 1K HDRI is 256 x 128, the panorama 1024 wide), as the scene bench.
  const pages = await servePages({ root: join(import.meta.dirname, "../browser/pages"), local: { imageScale: 0.25, speed: 50 } });
  const browser = await launchBrowser();
  const skyboxes = mkdtempSync(join(tmpdir(), "skybox-shipped-bench-"));
  const files = await startStaticServer({ "/skyboxes/": skyboxes }, { cors: true });
  try {
    const client = createSkyboxClient({ baseUrl: `${pages.url}/skybox` });
    const record = await complete(client, (await generate(client, "sunset desert over dunes")).id);
    const page = await browser.newPage();
    await openPage(page, pages.url);
    const apply = async (cache: boolean) =>
      (await page.evaluate(([id, o]) => window.skyboxTest.apply(id, o), [record.id, { ...PARTS, cache }] as const)).ms;
    const load = async (folder: string, cache: boolean) => {
      const r = await page.evaluate(([u, o]) => window.skyboxTest.load(u, o), [
        `${files.url}/skyboxes/${folder}/skybox.json`,
        { lighting: PARTS.lighting, cache },
      ] as const);
      return r.ms;
    };
    const medianOf = async (run: () => Promise<number>) => {
      const out: number[] = [];
      for (let i = 0; i < RUNS; i++) out.push(await run());
      return median(out);
    };
    // The first apply renders the exports and compiles the shaders: not a figure of either path.
    await apply(false);
    const applyCold = await medianOf(() => apply(false));
    await apply(true);
    await page.evaluate(() => window.skyboxTest.whenCached());
    const applyCached = await medianOf(() => apply(true));

    // The CLI's folder (.hdr) through the proxy, and the pane's (.env baked from the scene's cube).
    await runSaveCommand([String(record.id), "--out", join(skyboxes, "cli"), "--proxy", pages.url, "--quiet"], {}, () => undefined);
    const cli = readManifest(skyboxes, "cli");
    const env = base64ToBytes(await page.evaluate(() => window.skyboxTest.bakeEnv()));
    await writeSavedFolder(join(skyboxes, "pane"), {
      by: "pane",
      skybox: cli.skybox,
      settings: cli.settings,
      sun: cli.sun,
      files: {
        environment: { path: "environment.env", bytes: env, extra: { format: "env" } },
        background: {
          path: cli.files.background.path,
          bytes: readFileSync(join(skyboxes, "cli", cli.files.background.path)),
          extra: { width: cli.files.background.width, height: cli.files.background.height },
        },
        backdrop: { path: "backdrop.glb", bytes: readFileSync(join(skyboxes, "cli", "backdrop.glb")), extra: { format: "glb" } },
      },
    });
    const pane = readManifest(skyboxes, "pane");
    const loadEnvCold = await medianOf(() => load("pane", false));
    const loadHdrCold = await medianOf(() => load("cli", false));
    await load("pane", true);
    const loadEnvMemory = await medianOf(() => load("pane", true));
    await load("cli", true);
    await page.evaluate(() => window.skyboxTest.whenCached());
    const loadHdrMemory = await medianOf(() => load("cli", true));
    await clearMemory(page);
    const loadHdrBaked = await medianOf(async () => {
      await clearMemory(page);
      return load("cli", true);
    });
    return [
      `Model 3 skybox at image scale 1/4, every part on (lighting cube 256 quality 64, background, GLB backdrop, sun), median of ${RUNS}`,
      `pane's folder (.env): ${sizes(pane)}`,
      `babylon-skybox save's folder (.hdr): ${sizes(cli)}`,
      `loadSkybox -> ready, .env folder, nothing cached: ${ms(loadEnvCold)}; re-load from memory: ${ms(loadEnvMemory)}`,
      `loadSkybox -> ready, .hdr folder, nothing cached (prefiltered here): ${ms(loadHdrCold)}; from its bake in IndexedDB: ${ms(loadHdrBaked)}; from memory: ${ms(loadHdrMemory)}`,
      `applySkybox, cold (exports rendered already, no cache): ${ms(applyCold)}; re-apply from the cache: ${ms(applyCached)}`,
      `loadSkybox of the .env folder against applySkybox: cold ${(applyCold / loadEnvCold).toFixed(1)}x faster (${ms(loadEnvCold)} vs ${ms(applyCold)}); from memory ${ms(loadEnvMemory)} vs ${ms(applyCached)}`,
    ];
  } finally {
    await files.close();
    await browser.close();
    await pages.close();
    rmSync(skyboxes, { recursive: true, force: true });
  }
}

function readManifest(root: string, folder: string): SavedSkybox {
  return parseSavedSkybox(JSON.parse(readFileSync(join(root, folder, "skybox.json"), "utf8")));
}

function sizes(manifest: SavedSkybox): string {
  const list = Object.values(manifest.files).map((f) => `${f.path} ${kib(f.bytes)}`);
  const total = Object.values(manifest.files).reduce((n, f) => n + f.bytes, 0);
  return `${list.join(", ")}; total ${kib(total)} + skybox.json`;
}

async function clearMemory(page: Page): Promise<void> {
  await page.evaluate(() => {
    window.skyboxTest.disposeCurrent();
    window.skyboxTest.clearMemory();
  });
}

// `npx tsx test/bench/shipped-bench.ts` prints the figures on their own.
if (process.argv[1] && import.meta.filename === process.argv[1]) {
  shippedBench().then(
    (lines) => console.log(lines.join("\n")),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
