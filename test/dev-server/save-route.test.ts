/**
 * The Vite dev server's "Save to project" route: `/config` names it in the dev server only;
 * a save writes public/skyboxes/<slug>/ (manifest, the browser's .env as sent, the
 * background resized by sharp, the backdrop), answers the line that loads it, refuses to
 * overwrite until asked, and never writes outside the project.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createServer, preview, type PreviewServer, type ViteDevServer } from "vite";
import { parseSavedSkybox, sha256Hex } from "../../src/api/saved/saved-files.ts";
import type { SaveToProjectMeta } from "../../src/api/saved/save-request.ts";
import skyboxProxy from "../../src/dev-server/vite-plugin.ts";
import { KEY } from "../proxy/proxy-fixture.ts";

let root: string;
let server: ViteDevServer;
let panorama: Uint8Array;
const env = new Uint8Array(Array.from({ length: 5000 }, (_, i) => (i * 7) % 256));
const glb = new Uint8Array([0x67, 0x6c, 0x54, 0x46, 2, 0, 0, 0, 12, 0, 0, 0]);
const urlOf = (s: ViteDevServer | PreviewServer) => s.resolvedUrls!.local[0]!.replace(/\/$/, "");
// No upstream is reached: the route writes what the browser sends.
const plugin = () => skyboxProxy({ apiKey: KEY, upstream: "http://127.0.0.1:9" });

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "skybox-save-route-"));
  writeFileSync(join(root, "index.html"), "<!doctype html><title>app</title>");
  panorama = new Uint8Array(
    await sharp({ create: { width: 1024, height: 512, channels: 3, background: { r: 40, g: 90, b: 200 } } })
      .jpeg()
      .toBuffer(),
  );
  server = await createServer({ logLevel: "silent", configFile: false, root, server: { port: 0, host: "127.0.0.1" }, plugins: [plugin()] });
  await server.listen();
});
afterAll(async () => {
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

function meta(patch: Partial<SaveToProjectMeta> = {}): SaveToProjectMeta {
  return {
    slug: "dunes",
    overwrite: false,
    skybox: { id: 12, obfuscated_id: "obf12", title: "Dunes", prompt: "desert", style: { id: 2, name: "Realistic" }, seed: 7, model: 3 },
    settings: { rotation: 1, intensity: 1.5, backgroundBlur: 0, backdrop: { depthScale: 3, meshQuality: "medium" } },
    sun: {
      direction: [0.6, 0.8, 0],
      azimuth: 1.57,
      elevation: 0.93,
      color: [1, 0.95, 0.9],
      intensity: 4,
      illuminance: 3.8,
      solidAngle: 7e-5,
      source: "measured",
      confidence: 0.9,
      turbidity: null,
      disk: { sky: [0.2, 0.3, 0.5], pixels: [1, 0.9, 0.8, 1e-5] },
    },
    background: { width: 256, format: "jpeg" },
    ...patch,
  };
}

async function post(m: unknown, files: Record<string, Uint8Array> = { environment: env, panorama, backdrop: glb }) {
  const form = new FormData();
  form.set("meta", JSON.stringify(m));
  for (const [name, bytes] of Object.entries(files)) form.set(name, new Blob([bytes as BlobPart]), name);
  const res = await fetch(`${urlOf(server)}/skybox/project/skyboxes`, { method: "POST", body: form });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("Save to project", () => {
  test("the dev server's /config names the route; the preview server's has none and answers no save", async () => {
    expect(await (await fetch(`${urlOf(server)}/skybox/config`)).json()).toMatchObject({ saveToProject: "/skybox/project/skyboxes" });
    mkdirSync(join(root, "dist"), { recursive: true });
    writeFileSync(join(root, "dist", "index.html"), "<!doctype html><title>built</title>");
    const built = await preview({
      logLevel: "silent",
      configFile: false,
      root,
      preview: { port: 0, host: "127.0.0.1" },
      plugins: [plugin()],
    });
    try {
      const config = (await (await fetch(`${urlOf(built)}/skybox/config`)).json()) as Record<string, unknown>;
      expect(config).not.toHaveProperty("saveToProject");
      const res = await fetch(`${urlOf(built)}/skybox/project/skyboxes`, { method: "POST", body: new FormData() });
      expect(res.status).toBe(404);
    } finally {
      await built.close();
    }
  });

  test("writes public/skyboxes/<slug>/ and answers the line that loads it", async () => {
    const { status, body } = await post(meta());
    expect(status).toBe(200);
    expect(body).toEqual({
      folder: "public/skyboxes/dunes",
      url: "/skyboxes/dunes/skybox.json",
      code: 'const sky = await loadSkybox(scene, "/skyboxes/dunes/skybox.json");',
      note: null,
    });
    const dir = join(root, "public", "skyboxes", "dunes");
    const manifest = parseSavedSkybox(JSON.parse(readFileSync(join(dir, "skybox.json"), "utf8")));
    expect(manifest.saved.by).toBe("pane");
    expect(manifest.settings).toEqual(meta().settings);
    expect(manifest.sun).toEqual(meta().sun);
    expect(manifest.files.environment).toEqual({ path: "environment.env", bytes: env.length, sha256: await sha256Hex(env), format: "env" });
    expect(manifest.files.backdrop).toMatchObject({ path: "backdrop.glb", format: "glb", bytes: glb.length });
    expect(manifest.files.background).toMatchObject({ path: "background.jpg", width: 256, height: 128 });
    expect((await sharp(readFileSync(join(dir, "background.jpg"))).metadata()).width).toBe(256);
    expect(readdirSync(dir).sort()).toEqual(["backdrop.glb", "background.jpg", "environment.env", "skybox.json"]);
  });

  test("an existing folder is a 409 naming it, left as it was, until the save says overwrite", async () => {
    const before = readFileSync(join(root, "public", "skyboxes", "dunes", "skybox.json"), "utf8");
    const refused = await post(meta({ settings: { ...meta().settings, intensity: 2 } }));
    expect(refused).toEqual({
      status: 409,
      body: { error: expect.stringContaining("already exists"), folder: join("public", "skyboxes", "dunes") },
    });
    expect(readFileSync(join(root, "public", "skyboxes", "dunes", "skybox.json"), "utf8")).toBe(before);
    const replaced = await post(meta({ overwrite: true, settings: { ...meta().settings, intensity: 2, backdrop: null } }), {
      environment: env,
      panorama,
    });
    expect(replaced.status).toBe(200);
    const dir = join(root, "public", "skyboxes", "dunes");
    expect(parseSavedSkybox(JSON.parse(readFileSync(join(dir, "skybox.json"), "utf8"))).settings.intensity).toBe(2);
    expect(existsSync(join(dir, "backdrop.glb"))).toBe(false);
  });

  test("a slug that leaves the folder, a missing file or a bad field is a 400 naming it, and nothing is written", async () => {
    const outside = await post(meta({ slug: "../../escape" }));
    expect(outside.status).toBe(400);
    expect(outside.body.error).toMatch(/^meta\.slug: must be lowercase letters, digits and dashes/);
    expect(existsSync(join(root, "escape"))).toBe(false);
    const noEnv = await post(meta({ slug: "other" }), { panorama, backdrop: glb });
    expect(noEnv).toEqual({ status: 400, body: { error: "environment: is required (a file)" } });
    const noBackdrop = await post(meta({ slug: "other" }), { environment: env, panorama });
    expect(noBackdrop).toEqual({ status: 400, body: { error: "backdrop: is required (a file)" } });
    const blur = await post(meta({ slug: "other", settings: { ...meta().settings, backgroundBlur: 3 } }));
    expect(blur.status).toBe(400);
    expect(blur.body.error).toContain("meta.settings.backgroundBlur: must be a number from 0 to 1 (is 3)");
    expect(existsSync(join(root, "public", "skyboxes", "other"))).toBe(false);
  });

  test("with Vite's root in a subfolder of the project, /config and the answer name the folder from the project's root (where package.json is)", async () => {
    const project = mkdtempSync(join(tmpdir(), "skybox-save-project-"));
    writeFileSync(join(project, "package.json"), "{}");
    const app = join(project, "playground");
    mkdirSync(app);
    writeFileSync(join(app, "index.html"), "<!doctype html><title>app</title>");
    const nested = await createServer({
      logLevel: "silent",
      configFile: false,
      root: app,
      server: { port: 0, host: "127.0.0.1" },
      plugins: [plugin()],
    });
    await nested.listen();
    try {
      expect(await (await fetch(`${urlOf(nested)}/skybox/config`)).json()).toMatchObject({
        saveToProjectFolder: "playground/public/skyboxes",
      });
      const form = new FormData();
      form.set("meta", JSON.stringify(meta()));
      for (const [name, bytes] of Object.entries({ environment: env, panorama, backdrop: glb }))
        form.set(name, new Blob([bytes as BlobPart]), name);
      const res = await fetch(`${urlOf(nested)}/skybox/project/skyboxes`, { method: "POST", body: form });
      expect(await res.json()).toMatchObject({ folder: "playground/public/skyboxes/dunes", url: "/skyboxes/dunes/skybox.json" });
      expect(existsSync(join(app, "public", "skyboxes", "dunes", "skybox.json"))).toBe(true);
    } finally {
      await nested.close();
      rmSync(project, { recursive: true, force: true });
    }
  });

  test("a save folder outside the project is refused when the server starts", async () => {
    await expect(
      createServer({
        logLevel: "silent",
        configFile: false,
        root,
        server: { port: 0, host: "127.0.0.1" },
        plugins: [skyboxProxy({ apiKey: KEY, upstream: "http://127.0.0.1:9", saveFolder: "../elsewhere" })],
      }).then((s) => s.close()),
    ).rejects.toThrow(/saveFolder .* is outside the project's root/);
  });
});
