/**
 * `babylon-skybox save` against the local Skybox service (a child process, as users run it):
 * directly with the key, and through a running proxy with none. The folder it writes is
 * what `loadSkybox` reads: a manifest that validates, files whose sizes and hashes match,
 * the `.hdr`, the background resized by sharp, the GLB backdrop (Model 3) or depth map
 * (Model 4), and the sun where the renderer drew it. (test/scene/saved/load-skybox.browser.test.ts
 * loads such a folder in Chromium.)
 */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSkyboxClient, type SkyboxClient } from "../../src/api/index.ts";
import { directionOfDegrees } from "../../src/api/panorama/panorama-directions.ts";
import { parseSavedSkybox } from "../../src/api/saved/saved-files.ts";
import type { SavedSkybox } from "../../src/api/saved/saved-skybox.ts";
import { runSaveCommand } from "../../src/cli/save-command.ts";
import type { SceneSpec } from "../../src/local/imagery/scene/scene-spec.ts";
import { startLocalProcess, type LocalProcess } from "../helpers/local-service.ts";
import { startProxyProcess, type ProxyProcess } from "../helpers/proxy-process.ts";
import { complete, generate } from "../scene/scene-fixture.ts";

let local: LocalProcess;
let proxy: ProxyProcess;
let client: SkyboxClient;
let out: string;

beforeAll(async () => {
  local = await startLocalProcess();
  proxy = await startProxyProcess({ apiKey: local.info.apiKey }, { upstream: local.info.url });
  client = createSkyboxClient({ baseUrl: local.info.url, apiKey: local.info.apiKey });
  out = mkdtempSync(join(tmpdir(), "skybox-save-"));
}, 60_000);

afterAll(async () => {
  await proxy?.stop();
  await local?.stop();
  if (out) rmSync(out, { recursive: true, force: true });
});

/** Runs the command in-process, returning its JSON line. */
async function save(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ out: string; files: { path: string; bytes: number }[]; sun: boolean }> {
  let line = "";
  await runSaveCommand([...args, "--quiet"], env, (l) => (line = l));
  return JSON.parse(line) as { out: string; files: { path: string; bytes: number }[]; sun: boolean };
}

function readFolder(dir: string): SavedSkybox {
  return parseSavedSkybox(JSON.parse(readFileSync(join(dir, "skybox.json"), "utf8")));
}

const angle = (a: readonly number[], b: readonly number[]) =>
  (Math.acos(Math.min(1, a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!)) * 180) / Math.PI;

describe("babylon-skybox save", () => {
  test("writes a Model 3 skybox's folder directly with the key: manifest, .hdr, resized background, GLB, and the sun where it was drawn", async () => {
    const record = await complete(client, (await generate(client, "clear desert at noon")).id);
    const dir = join(out, "desert");
    const printed = await save(
      [
        String(record.id),
        "--out",
        dir,
        "--upstream",
        local.info.url,
        "--background-width",
        "256",
        "--rotation",
        "0.5",
        "--mesh-quality",
        "low",
        "--hdr-resolution",
        "8K",
      ],
      { SKYBOX_API_KEY: local.info.apiKey },
    );
    expect(printed.out).toBe(dir);
    const manifest = readFolder(dir);
    expect(manifest.skybox).toMatchObject({ id: record.id, obfuscated_id: record.obfuscated_id, prompt: "clear desert at noon", model: 3 });
    expect(manifest.settings).toEqual({ rotation: 0.5, intensity: 1, backgroundBlur: 0, backdrop: { depthScale: 3, meshQuality: "low" } });
    expect(manifest.saved.by).toBe("cli");
    expect(manifest.files.environment).toMatchObject({ path: "environment.hdr", format: "hdr" });
    expect(manifest.files.background).toMatchObject({ path: "background.jpg", width: 256, height: 128 });
    expect(manifest.files.backdrop).toMatchObject({ path: "backdrop.glb", format: "glb" });
    for (const f of Object.values(manifest.files)) {
      const bytes = readFileSync(join(dir, f.path));
      expect([f.path, bytes.length]).toEqual([f.path, f.bytes]);
      expect(createHash("sha256").update(bytes).digest("hex")).toBe(f.sha256);
    }
    expect(readFileSync(join(dir, "environment.hdr")).subarray(0, 10).toString("latin1")).toMatch(/^#\?RADIANCE|^#\?RGBE/);
    expect(readFileSync(join(dir, "backdrop.glb")).subarray(0, 4).toString("latin1")).toBe("glTF");
    expect(readFileSync(join(dir, "background.jpg")).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    // The sun the renderer drew (its scene.json, test-only), found in the saved HDRI (8K: 512
    // wide at the test service's image scale, where the disk still covers a few pixels).
    const spec = JSON.parse(readFileSync(join(local.dataDir, "generations", record.obfuscated_id, "scene.json"), "utf8")) as SceneSpec;
    const drawn = directionOfDegrees(spec.sun.azimuth, spec.sun.elevation);
    expect(manifest.sun).not.toBeNull();
    expect(angle(manifest.sun!.direction, drawn)).toBeLessThan(2);
  }, 120_000);

  test("through a running proxy with no key, writes a Model 4 skybox's folder with its depth map; refuses to overwrite unless --force", async () => {
    const record = await complete(client, (await generate(client, "night city skyline", 4)).id);
    const dir = join(out, "city");
    await save(
      [record.obfuscated_id, "--out", dir, "--proxy", proxy.info.url, "--background-format", "webp", "--background-width", "512"],
      {},
    );
    const manifest = readFolder(dir);
    expect(manifest.skybox).toMatchObject({ id: record.id, model: 4 });
    expect(manifest.files.backdrop).toMatchObject({ path: "depth.png", format: "depth-png" });
    expect(manifest.files.background.path).toBe("background.webp");
    expect(readFileSync(join(dir, "background.webp")).subarray(8, 12).toString("latin1")).toBe("WEBP");
    expect(readFileSync(join(dir, "depth.png")).subarray(1, 4).toString("latin1")).toBe("PNG");
    const before = readFileSync(join(dir, "skybox.json"), "utf8");
    await expect(save([record.obfuscated_id, "--out", dir, "--proxy", proxy.info.url, "--no-backdrop"], {})).rejects.toThrow(
      `${dir} already exists and is not empty`,
    );
    expect(readFileSync(join(dir, "skybox.json"), "utf8")).toBe(before);
    await save([record.obfuscated_id, "--out", dir, "--proxy", proxy.info.url, "--no-backdrop", "--force"], {});
    const replaced = readFolder(dir);
    expect([replaced.files.backdrop, replaced.settings.backdrop]).toEqual([undefined, null]);
  }, 120_000);

  test("bad flags and a missing key are sentences naming them; nothing is written", async () => {
    const dir = join(out, "bad");
    await expect(save(["1", "--out", dir, "--upstream", local.info.url], {})).rejects.toThrow(/SKYBOX_API_KEY is not set.*--proxy/);
    await expect(save(["1", "--out", dir, "--proxy", proxy.info.url, "--depth-scale", "11"], {})).rejects.toThrow(
      '--depth-scale must be a number from 3 to 10 (is "11")',
    );
    await expect(save(["1", "--out", dir, "--proxy", proxy.info.url, "--mesh-quality", "ultra"], {})).rejects.toThrow(
      /--mesh-quality must be one of low, medium, high, epic/,
    );
    await expect(save(["1", "--proxy", proxy.info.url], {})).rejects.toThrow(/--out DIR is required/);
    await expect(save(["999999", "--out", dir, "--proxy", proxy.info.url], {})).rejects.toThrow(/999999/);
    // An unreachable service fails at once, and its sentence never holds the key.
    const unreachable = await save(["1", "--out", dir, "--upstream", "http://127.0.0.1:9"], {
      SKYBOX_API_KEY: "sk-never-shown-123456",
    }).catch((e: Error) => e);
    expect(unreachable).toBeInstanceOf(Error);
    expect((unreachable as Error).message).toMatch(/Network error: fetch failed \(GET \/api\/v1\/imagine\/requests\/1\)/);
    expect((unreachable as Error).message).not.toContain("sk-never-shown");
    mkdirSync(join(out, "untouched"));
    writeFileSync(join(out, "untouched", "keep.txt"), "x");
    await expect(save(["1", "--out", join(out, "untouched"), "--proxy", proxy.info.url], {})).rejects.toThrow(/already exists/);
    expect(readFileSync(join(out, "untouched", "keep.txt"), "utf8")).toBe("x");
  }, 60_000);
});
