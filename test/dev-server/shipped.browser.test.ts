/**
 * Shipping a skybox, end to end: in the Vite dev server (the plugin, the local Skybox
 * service behind it) the pane's state applies a skybox and saves it into the project; then
 * the app is built (`vite build`), the dev server and the local service are gone, and a
 * plain static file server serves dist/. There `loadSkybox` lights and shows the scene as
 * the editor did (lighting, background, backdrop, sun: pixels compared), and the page asks
 * for nothing but static files.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { build, createServer, type ViteDevServer } from "vite";
import { skyboxProxy } from "../../src/dev-server/vite-plugin.ts";
import { launchBrowser } from "../browser/harness.ts";
import { startStaticServer, type StaticServer } from "../helpers/static-server.ts";

const APP = join(import.meta.dirname, "shipped-app");
const REPO = resolve(import.meta.dirname, "../..");
const SLUG = "noon-dunes";

let browser: Browser;
let outDir: string;
let dataDir: string;
let editor: Awaited<ReturnType<typeof runEditor>>;

const colourDistance = (a: readonly number[], b: readonly number[]) => (Math.abs(a[0]! - b[0]!) + Math.abs(a[1]! - b[1]!) + Math.abs(a[2]! - b[2]!)) / 3;

async function runEditor() {
  // The plugin uses the real service when SKYBOX_API_KEY is set: this test uses the local one.
  const savedKey = process.env.SKYBOX_API_KEY;
  delete process.env.SKYBOX_API_KEY;
  let server: ViteDevServer | null = null;
  try {
    server = await createServer({
      root: APP,
      configFile: false,
      logLevel: "warn",
      server: { host: "127.0.0.1", port: 0, fs: { allow: [REPO] } },
      // Images at half size: the 1K HDRI the pane finds the sun in is then 512 wide, where the disk covers a few pixels.
      plugins: [skyboxProxy({ local: { speed: 50, imageScale: 1 / 2, dataDir } })],
    });
    await server.listen();
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${server.resolvedUrls!.local[0]}index.html`);
    await page.waitForFunction(() => window.app !== undefined, null, { timeout: 120_000 });
    await page.evaluate(() => window.app.setup());
    const result = await page.evaluate(([slug]) => window.app.editor("clear desert at noon", slug), [SLUG] as const);
    await page.close();
    return { ...result, errors };
  } finally {
    await server?.close();
    if (savedKey !== undefined) process.env.SKYBOX_API_KEY = savedKey;
  }
}

beforeAll(async () => {
  rmSync(join(APP, "public"), { recursive: true, force: true });
  dataDir = mkdtempSync(join(tmpdir(), "skybox-shipped-local-"));
  outDir = mkdtempSync(join(tmpdir(), "skybox-shipped-dist-"));
  browser = await launchBrowser();
  editor = await runEditor();
  await build({ root: APP, configFile: false, logLevel: "warn", build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 100_000, reportCompressedSize: false } });
}, 600_000);

afterAll(async () => {
  await browser?.close();
  for (const dir of [join(APP, "public"), outDir, dataDir]) if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("a skybox saved from the pane in the dev server, shipped as static files", () => {
  test("the dev server saved it into public/skyboxes/<slug>/ and answered the line that loads it; a second save asked first", () => {
    expect(editor.errors).toEqual([]);
    expect(editor.error).toBeNull();
    expect(editor.saveToProject).toBe("/skybox/project/skyboxes");
    expect(editor.saved).toMatchObject({ folder: `public/skyboxes/${SLUG}`, url: `/skyboxes/${SLUG}/skybox.json`, code: `const sky = await loadSkybox(scene, "/skyboxes/${SLUG}/skybox.json");` });
    expect(editor.again).toBeNull();
    expect(editor.existsAfterSecond).toBe(`public/skyboxes/${SLUG}`);
    expect(existsSync(join(outDir, "skyboxes", SLUG, "skybox.json"))).toBe(true);
  });

  test("served by a plain static server, loadSkybox shows what the editor showed, asking for nothing but static files", async () => {
    const server: StaticServer = await startStaticServer({ "/": outDir });
    const page = await browser.newPage();
    const failed: string[] = [];
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("response", (r) => r.status() >= 400 && failed.push(`${r.status()} ${r.url()}`));
    try {
      await page.goto(`${server.url}/index.html`);
      await page.waitForFunction(() => window.app !== undefined);
      await page.evaluate(() => window.app.setup());
      const shipped = await page.evaluate(([slug]) => window.app.shipped(`/skyboxes/${slug}/skybox.json`), [SLUG] as const);
      expect(shipped.stages).toContain("prefiltering: environment.env: prefiltered when saved, nothing to do");
      const [e, s] = [editor.pixels, shipped.pixels];
      // Lighting: the .env is the editor's prefiltered cube (RGBD-encoded, so a few levels off at most).
      for (const i of [0, 1]) expect(colourDistance(s.lit[i]!, e.lit[i]!), `sphere ${i}: ${s.lit[i]} vs ${e.lit[i]}`).toBeLessThan(6);
      // Background and backdrop, six directions, as saved (rotation 30 degrees included).
      for (const i of e.sky.keys()) expect(colourDistance(s.sky[i]!, e.sky[i]!), `sky ${i}: ${s.sky[i]} vs ${e.sky[i]}`).toBeLessThan(8);
      // The sun light, as the editor had it.
      expect(e.sun).not.toBeNull();
      expect(s.sun!.intensity).toBeCloseTo(e.sun!.intensity, 5);
      for (const c of [0, 1, 2]) expect(s.sun!.direction[c]).toBeCloseTo(e.sun!.direction[c]!, 5);
      expect(s.environmentIntensity).toBeCloseTo(1.2, 5);
      // Nothing but the static files of dist/ was asked for, and every one was there.
      expect(failed).toEqual([]);
      expect(errors).toEqual([]);
      expect(server.requests.filter((r) => r.startsWith("/skybox/") || r.includes("/api/"))).toEqual([]);
      expect(server.requests.filter((r) => r.startsWith("/skyboxes/")).sort()).toEqual([`/skyboxes/${SLUG}/backdrop.glb`, `/skyboxes/${SLUG}/background.jpg`, `/skyboxes/${SLUG}/environment.env`, `/skyboxes/${SLUG}/skybox.json`]);
    } finally {
      await page.close();
      await server.close();
    }
  });
});
