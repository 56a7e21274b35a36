/**
 * Shipping a skybox, end to end: in the Vite dev server (the plugin, the local Skybox
 * service behind it) the pane's state applies a skybox, and the user saves it into the
 * project with the pane's own controls in the Inspector (folder name, "Save to project",
 * then "Replace" offered on a second save); then
 * the app is built (`vite build`), the dev server and the local service are gone, and a
 * plain static file server serves dist/. There `loadSkybox` lights and shows the scene as
 * the editor did (lighting, background, backdrop, sun: pixels compared), and the page asks
 * for nothing but static files.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { build, createServer, type ViteDevServer } from "vite";
import { skyboxProxy } from "../../src/dev-server/vite-plugin.ts";
import react from "@vitejs/plugin-react";
import { launchBrowser } from "../browser/harness.ts";
import { openSection } from "../inspector/pane-page.ts";
import { startStaticServer, type StaticServer } from "../helpers/static-server.ts";

const APP = join(import.meta.dirname, "shipped-app");
const REPO = resolve(import.meta.dirname, "../..");
const SLUG = "noon-dunes";

let browser: Browser;
let outDir: string;
let dataDir: string;
let editor: Awaited<ReturnType<typeof runEditor>>;

const colourDistance = (a: readonly number[], b: readonly number[]) =>
  (Math.abs(a[0]! - b[0]!) + Math.abs(a[1]! - b[1]!) + Math.abs(a[2]! - b[2]!)) / 3;

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
      define: { __SKYBOX_EDITOR__: "true" },
      // Images at half size: the 1K HDRI the pane finds the sun in is then 512 wide, where the disk covers a few pixels.
      plugins: [react(), skyboxProxy({ local: { speed: 50, imageScale: 1 / 2, exportScale: 1 / 2, dataDir } })],
    });
    await server.listen();
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    // The first visit waits for Vite to optimise the dependencies (the Inspector's included).
    await page.goto(`${server.resolvedUrls!.local[0]}index.html`, { waitUntil: "commit" });
    await page.waitForFunction(() => window.app !== undefined, null, { timeout: 240_000 });
    await page.evaluate(() => window.app.setup());
    const result = await page.evaluate(() => window.app.editor("clear desert at noon"));
    await page.evaluate(() => window.app.inspector());
    const saved = await saveWithThePane(page);
    await page.close();
    return { ...result, ...saved, errors };
  } finally {
    await server?.close();
    if (savedKey !== undefined) process.env.SKYBOX_API_KEY = savedKey;
  }
}

/** What a user does in the pane's Save section: names the folder, saves, then saves again. */
async function saveWithThePane(page: Page) {
  await openSection(page, "apply");
  const slug = page.getByTestId("skybox-save-slug");
  await slug.fill("Not A Slug");
  const refused = await page.getByTestId("skybox-save-button").isDisabled();
  await slug.fill(SLUG);
  // Every step the pane shows while it saves, as a user would read them.
  await page.evaluate(() => {
    const seen = new Set<string>();
    (window as unknown as { saveSteps: Set<string> }).saveSteps = seen;
    new MutationObserver(() =>
      document
        .querySelectorAll("[data-testid=skybox-save-step]")
        .forEach((el) => seen.add(`${(el as HTMLElement).dataset.stage}: ${el.textContent}`)),
    ).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await page.getByTestId("skybox-save-button").click();
  const savedView = page.getByTestId("skybox-saved");
  await savedView.waitFor({ timeout: 120_000 });
  const saved = { url: await savedView.getAttribute("data-url"), code: await savedView.locator("pre").textContent() };
  const savedTo = await savedView.locator("span").first().textContent();
  const steps = await page.evaluate(() => [...(window as unknown as { saveSteps: Set<string> }).saveSteps]);
  // A second save of the same folder writes nothing and offers to replace it.
  await page.getByTestId("skybox-save-button").click();
  const replace = page.getByTestId("skybox-save-replace");
  await replace.waitFor({ timeout: 60_000 });
  const error = await page.locator("#skybox-save-error").count();
  return {
    refused,
    saved,
    savedTo,
    steps,
    replaceLabel: await replace.textContent(),
    savedShownAfterSecond: await savedView.count(),
    saveErrors: error,
  };
}

beforeAll(async () => {
  rmSync(join(APP, "public"), { recursive: true, force: true });
  dataDir = mkdtempSync(join(tmpdir(), "skybox-shipped-local-"));
  outDir = mkdtempSync(join(tmpdir(), "skybox-shipped-dist-"));
  browser = await launchBrowser();
  editor = await runEditor();
  await build({
    root: APP,
    configFile: false,
    logLevel: "warn",
    define: { __SKYBOX_EDITOR__: "false" },
    build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 100_000, reportCompressedSize: false },
  });
}, 600_000);

afterAll(async () => {
  await browser?.close();
  for (const dir of [join(APP, "public"), outDir, dataDir]) if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("a skybox saved from the pane in the dev server, shipped as static files", () => {
  test("the pane's Save to project wrote public/skyboxes/<slug>/ and showed the line that loads it; a second save offered to replace it", () => {
    expect(editor.errors).toEqual([]);
    expect(editor.saveToProject).toBe("/skybox/project/skyboxes");
    expect(editor.refused, "a folder name that is not a slug disables the button").toBe(true);
    expect(editor.saved).toEqual({
      url: `/skyboxes/${SLUG}/skybox.json`,
      code: `const sky = await loadSkybox(scene, "/skyboxes/${SLUG}/skybox.json");`,
    });
    // Named from the project (where package.json is), as a user reads paths: the app is a folder of this repository.
    expect(editor.savedTo).toBe(`Saved to test/dev-server/shipped-app/public/skyboxes/${SLUG}. Load it with:`);
    expect(editor.replaceLabel).toBe(`Replace test/dev-server/shipped-app/public/skyboxes/${SLUG}`);
    expect(editor.savedShownAfterSecond).toBe(0);
    expect(editor.saveErrors).toBe(0);
    expect(existsSync(join(outDir, "skyboxes", SLUG, "skybox.json"))).toBe(true);
  });

  test("while it saves, the pane says each step with its progress: the .env baked face by face, then the folder written", () => {
    const baking = editor.steps.filter((s) => s.startsWith("baking: Baking the environment (.env) from the GPU"));
    // More than a start and an end: the share grows as faces are read and encoded.
    expect(new Set(baking).size, editor.steps.join("\n")).toBeGreaterThan(2);
    expect(editor.steps, editor.steps.join("\n")).toContainEqual(
      expect.stringMatching(/^writing: Writing test\/dev-server\/shipped-app\/public\/skyboxes\/noon-dunes\/ \(\d+\.\d MB\)…$/),
    );
  });

  test("the manifest holds the Apply settings the skybox was shown with, its backdrop's depth scale and mesh quality included", () => {
    const manifest = JSON.parse(readFileSync(join(outDir, "skyboxes", SLUG, "skybox.json"), "utf8"));
    expect(manifest.settings).toMatchObject({ intensity: 1.2, backgroundBlur: 0, backdrop: editor.backdrop });
    expect(manifest.settings.rotation).toBeCloseTo((30 * Math.PI) / 180, 6);
    expect(manifest.saved.by).toBe("pane");
    // The sun found in the lighting's own export: the .env's cube size and where the disk's pixels are, to take its share out texel by texel.
    expect(manifest.sun.disk.cube).toBe(256);
    expect(manifest.sun.disk.at.indices.length).toBe(manifest.sun.disk.pixels.length / 4);
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
      for (const i of [0, 1])
        expect(colourDistance(s.lit[i]!, e.lit[i]!), `sphere ${i}: ${String(s.lit[i])} vs ${String(e.lit[i])}`).toBeLessThan(6);
      // Background and backdrop, six directions, as saved (rotation 30 degrees included).
      for (const i of e.sky.keys())
        expect(colourDistance(s.sky[i]!, e.sky[i]!), `sky ${i}: ${String(s.sky[i])} vs ${String(e.sky[i])}`).toBeLessThan(8);
      // The sun light, as the editor had it.
      expect(e.sun).not.toBeNull();
      expect(s.sun!.intensity).toBeCloseTo(e.sun!.intensity, 5);
      for (const c of [0, 1, 2]) expect(s.sun!.direction[c]).toBeCloseTo(e.sun!.direction[c]!, 5);
      expect(s.environmentIntensity).toBeCloseTo(1.2, 5);
      // Nothing but the static files of dist/ was asked for, and every one was there.
      expect(failed).toEqual([]);
      expect(errors).toEqual([]);
      expect(server.requests.filter((r) => r.startsWith("/skybox/") || r.includes("/api/"))).toEqual([]);
      expect(server.requests.filter((r) => r.startsWith("/skyboxes/")).sort()).toEqual([
        `/skyboxes/${SLUG}/backdrop.glb`,
        `/skyboxes/${SLUG}/background.jpg`,
        `/skyboxes/${SLUG}/environment.env`,
        `/skyboxes/${SLUG}/skybox.json`,
      ]);
    } finally {
      await page.close();
      await server.close();
    }
  });
});
