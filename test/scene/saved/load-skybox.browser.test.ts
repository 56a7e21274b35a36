/**
 * `loadSkybox` in Chromium (SwiftShader WebGL2), from a folder `babylon-skybox save` wrote
 * against the local Skybox service, served with the built test page by a plain static file
 * server: the local service is stopped first and no proxy runs, so nothing but static files
 * can answer. A `.hdr` folder is prefiltered once, then kept; the same sky baked to a `.env`
 * (as the pane's "Save to project" bakes it) lights and shows the same; a missing, changed
 * or ill-formed file is an error naming it and leaves the scene as it was.
 */
import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { base64ToBytes, createSkyboxClient } from "../../../src/api/index.ts";
import { parseSavedSkybox } from "../../../src/api/saved/saved-files.ts";
import { runSaveCommand } from "../../../src/cli/save-command.ts";
import { writeSavedFolder } from "../../../src/dev-server/saved/write-saved-folder.ts";
import { buildPages } from "../../browser/serve-pages.ts";
import { launchBrowser } from "../../browser/harness.ts";
import { startLocalProcess } from "../../helpers/local-service.ts";
import { startStaticServer, type StaticServer } from "../../helpers/static-server.ts";
import { colourDistance, complete, generate, openPage } from "../scene-fixture.ts";

let skyboxes: string;
let server: StaticServer;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];
const OPTIONS = { lighting: { size: 64, quality: 16 } };

beforeAll(async () => {
  skyboxes = mkdtempSync(join(tmpdir(), "skybox-shipped-"));
  const local = await startLocalProcess();
  try {
    const client = createSkyboxClient({ baseUrl: local.info.url, apiKey: local.info.apiKey });
    // Seed 11: its sun falls where the lighting's 64 cube, made from the 8K panorama a pixel a texel, holds far
    // more of the disk than its pixels' sum (see the .env test).
    const desert = await complete(client, (await generate(client, "clear desert at noon", 3, 11)).id);
    const args = ["--upstream", local.info.url, "--hdr-resolution", "8K", "--background-width", "512", "--mesh-quality", "low", "--quiet"];
    await runSaveCommand(
      [String(desert.id), "--out", join(skyboxes, "desert"), ...args],
      { SKYBOX_API_KEY: local.info.apiKey },
      () => undefined,
    );
  } finally {
    await local.stop();
  }
  const { outDir } = await buildPages(join(import.meta.dirname, "../../browser/pages"), {});
  server = await startStaticServer({ "/": outDir, "/skyboxes/": skyboxes });
  browser = await launchBrowser();
  page = await browser.newPage();
  page.on("pageerror", (e) => pageErrors.push(e.message));
  await openPage(page, server.url);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (skyboxes) rmSync(skyboxes, { recursive: true, force: true });
});

const load = (url: string, options: object = OPTIONS) => page.evaluate(([u, o]) => window.skyboxTest.load(u, o), [url, options] as const);
const loadFailing = (url: string, options: object = OPTIONS) =>
  page.evaluate(([u, o]) => window.skyboxTest.loadFailing(u, o), [url, options] as const);
const manifestOf = (folder: string) => parseSavedSkybox(JSON.parse(readFileSync(join(skyboxes, folder, "skybox.json"), "utf8")));

describe("loadSkybox", () => {
  test("lights, shows and places a saved .hdr folder, prefiltering it once, with no request but the static files", async () => {
    server.requests.length = 0;
    const loaded = await load("/skyboxes/desert/skybox.json");
    const prefilter = loaded.stages.find((s) => s.stage === "prefiltering");
    expect(prefilter?.detail).toMatch(/^environment\.hdr to a 64 cube, 16 samples: once, then kept in the cache$/);
    expect(loaded.stages.at(-1)).toEqual({ stage: "ready" });
    expect(loaded.environment).not.toBeNull();
    expect(loaded.meshes.some((m) => m.includes("backdrop"))).toBe(true);
    expect(loaded.fromCache).toBe(false);
    // Every request was a static file of the page or of the folder: nothing reached for an API.
    expect(server.requests.filter((r) => r.startsWith("/skyboxes/"))).toEqual(
      expect.arrayContaining([
        "/skyboxes/desert/skybox.json",
        "/skyboxes/desert/environment.hdr",
        "/skyboxes/desert/background.jpg",
        "/skyboxes/desert/backdrop.glb",
      ]),
    );
    expect(server.requests.filter((r) => r.startsWith("/skybox/") || r.includes("/api/"))).toEqual([]);
    // The sun saved in skybox.json shines from where it was found.
    const sun = await page.evaluate(() => window.skyboxTest.savedSun());
    expect(sun?.enabled).toBe(true);
    expect(sun?.direction).toEqual(manifestOf("desert").sun!.direction);
    // The background shows the saved panorama where Babylon's own view of the environment shows it.
    const ahead = await page.evaluate(() => window.skyboxTest.look(0, 10));
    const reference = await page.evaluate(() => window.skyboxTest.reference(0, 10));
    expect(colourDistance(ahead, reference)).toBeLessThan(40);
  });

  test("a second load of the same folder takes the environment and the dome kept in memory", async () => {
    await page.evaluate(() => window.skyboxTest.whenCached());
    server.requests.length = 0;
    const again = await load("/skyboxes/desert/skybox.json");
    expect(again.fromCache).toBe(true);
    // Neither the environment nor the dome's panorama is fetched again: both are kept under their files' hashes.
    expect(server.requests.filter((r) => r.startsWith("/skyboxes/"))).toEqual([
      "/skyboxes/desert/skybox.json",
      "/skyboxes/desert/backdrop.glb",
    ]);
    expect(again.stages.some((s) => s.stage === "prefiltering" && /kept in memory/.test(s.detail ?? ""))).toBe(true);
  });

  test("the sky baked to a .env loads with no prefiltering and lights and shows as the .hdr did", async () => {
    const hdrLit = await page.evaluate(() => window.skyboxTest.spheres());
    const hdrSky = await page.evaluate(() => window.skyboxTest.look(90, 5));
    const env = base64ToBytes(await page.evaluate(() => window.skyboxTest.bakeEnv()));
    const saved = manifestOf("desert");
    const dir = join(skyboxes, "desert");
    await writeSavedFolder(join(skyboxes, "desert-env"), {
      by: "pane",
      skybox: saved.skybox,
      settings: saved.settings,
      // As the pane saves a .env: with the size of the cube it baked, so that the sun's share of the cube's harmonics is
      // taken out texel by texel (without it, the disk's pixels are summed: the sky lit the rough sphere 16 to 18 levels
      // brighter or darker than the .hdr did, as the cube's texels happened to hold more or less of the disk).
      sun: { ...saved.sun!, disk: { ...saved.sun!.disk, cube: OPTIONS.lighting.size } },
      files: {
        environment: { path: "environment.env", bytes: env, extra: { format: "env" } },
        hdr: { path: "environment.hdr", bytes: readFileSync(join(dir, "environment.hdr")), extra: {} },
        background: {
          path: "background.jpg",
          bytes: readFileSync(join(dir, "background.jpg")),
          extra: { width: saved.files.background.width, height: saved.files.background.height },
        },
        backdrop: { path: "backdrop.glb", bytes: readFileSync(join(dir, "backdrop.glb")), extra: { format: "glb" } },
      },
    });
    server.requests.length = 0;
    const loaded = await load("/skyboxes/desert-env/skybox.json");
    expect(loaded.stages.find((s) => s.stage === "prefiltering")?.detail).toBe("environment.env: prefiltered when saved, nothing to do");
    // The source .hdr is in the folder for those who want it, never downloaded to light the scene.
    expect(server.requests).not.toContain("/skyboxes/desert-env/environment.hdr");
    const envLit = await page.evaluate(() => window.skyboxTest.spheres());
    expect(colourDistance(envLit.metal, hdrLit.metal)).toBeLessThan(12);
    expect(colourDistance(envLit.rough, hdrLit.rough)).toBeLessThan(12);
    expect(colourDistance(await page.evaluate(() => window.skyboxTest.look(90, 5)), hdrSky)).toBeLessThan(12);
  });

  test("a changed, missing or ill-formed file is an error naming it, and the scene keeps what it showed", async () => {
    const tampered = join(skyboxes, "tampered");
    cpSync(join(skyboxes, "desert"), tampered, { recursive: true });
    const jpg = readFileSync(join(tampered, "background.jpg"));
    jpg.writeUInt8(jpg.readUInt8(jpg.length - 10) ^ 0xff, jpg.length - 10);
    writeFileSync(join(tampered, "background.jpg"), jpg);
    const changed = await loadFailing("/skyboxes/tampered/skybox.json", { ...OPTIONS, cache: false });
    expect(changed.error?.message).toMatch(/^background\.jpg does not match its SHA-256 in skybox\.json/);
    expect(changed.after).toEqual(changed.before);
    expect(changed.environmentKept).toBe(true);
    expect(changed.currentDisposed).toBe(false);

    copyFileSync(join(skyboxes, "desert", "background.jpg"), join(tampered, "background.jpg"));
    unlinkSync(join(tampered, "backdrop.glb"));
    const missing = await loadFailing("/skyboxes/tampered/skybox.json", { ...OPTIONS, cache: false });
    expect(missing.error?.message).toMatch(
      /^Download of the backdrop\.glb failed \(http:\/\/127\.0\.0\.1:\d+\/skyboxes\/tampered\/backdrop\.glb\): HTTP 404/,
    );
    expect(missing.after).toEqual(missing.before);

    const manifest = JSON.parse(readFileSync(join(tampered, "skybox.json"), "utf8"));
    manifest.files.environment.path = "../desert/environment.hdr";
    writeFileSync(join(tampered, "skybox.json"), JSON.stringify(manifest));
    const outside = await loadFailing("/skyboxes/tampered/skybox.json");
    expect(outside.error?.message).toContain("files.environment.path: must be a plain file name beside skybox.json");
    expect(outside.after).toEqual(outside.before);

    const none = await loadFailing("/skyboxes/nowhere/skybox.json");
    expect(none.error?.message).toMatch(/^Download of the skybox\.json failed .*HTTP 404/);
  });

  test("disposed, nothing of it stays", async () => {
    await page.evaluate(() => window.skyboxTest.disposeCurrent());
    const described = await page.evaluate(() => window.skyboxTest.describe());
    expect(described).toBeNull();
    expect(pageErrors).toEqual([]);
  });
});
