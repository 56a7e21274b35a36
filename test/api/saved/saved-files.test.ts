/**
 * The saved skybox manifest's rules (src/api/saved): a manifest that breaks one is refused
 * with a sentence naming the field and the rule; a file that is not the one saved is
 * refused naming the file.
 */
import { describe, expect, test } from "vitest";
import { checkSavedFile, parseSavedSkybox, savedFileOf, sha256Hex } from "../../../src/api/saved/saved-files.ts";

const file = (path: string) => ({ path, bytes: 3, sha256: "a".repeat(64) });
const manifest = () => ({
  format: 1,
  skybox: { id: 7, obfuscated_id: "abc", title: "Dunes", prompt: "desert", style: { id: 2, name: "Realistic" }, seed: 42, model: 3 },
  settings: { rotation: 0.5, intensity: 1, backgroundBlur: 0, backdrop: { depthScale: 3, meshQuality: "medium" } },
  sun: {
    direction: [0, 1, 0],
    azimuth: 0,
    elevation: 1.5,
    color: [1, 0.9, 0.8],
    intensity: 3,
    illuminance: 2.7,
    solidAngle: 6e-5,
    source: "estimated",
    confidence: 0.6,
    turbidity: 2.5,
    disk: { sky: [0.2, 0.3, 0.5], pixels: [] },
  },
  files: {
    environment: { ...file("environment.env"), format: "env" },
    background: { ...file("background.jpg"), width: 4096, height: 2048 },
    backdrop: { ...file("backdrop.glb"), format: "glb" },
  },
  saved: { by: "pane", at: "2026-11-26T10:00:00.000Z" },
});

describe("parseSavedSkybox", () => {
  test("reads a valid manifest as is", () => {
    expect(parseSavedSkybox(manifest())).toEqual(manifest());
  });

  test.each([
    [(m: any) => (m.format = 2), "format: must be 1 (this version of babylon-skybox reads format 1)"],
    [(m: any) => (m.files.environment.path = "../secret.env"), "files.environment.path: must be a plain file name beside skybox.json"],
    [(m: any) => (m.files.background.sha256 = "XYZ"), "files.background.sha256: must be 64 lowercase hexadecimal digits"],
    [(m: any) => (m.settings.backgroundBlur = 2), "settings.backgroundBlur: must be a number from 0 to 1 (is 2)"],
    [(m: any) => (m.settings.backdrop.depthScale = 12), "settings.backdrop.depthScale: must be a number from 3 to 10 (is 12)"],
    [(m: any) => (m.files.environment.format = "exr"), 'files.environment.format: must be one of "env", "hdr"'],
    [(m: any) => delete m.files.backdrop, "files.backdrop: is required when settings.backdrop is set"],
    [(m: any) => (m.skybox.model = 4), 'files.backdrop.format: must be "depth-png" for a Model 4 skybox (is "glb")'],
    [(m: any) => (m.extra = 1), "has unknown field extra"],
  ])("refuses a broken rule, naming it (%#)", (breakIt, sentence) => {
    const m = manifest();
    breakIt(m);
    expect(() => parseSavedSkybox(m, "/skyboxes/x/skybox.json")).toThrow(sentence);
    expect(() => parseSavedSkybox(m, "/skyboxes/x/skybox.json")).toThrow(/^skybox\.json \(\/skyboxes\/x\/skybox\.json\)/);
  });
});

describe("checkSavedFile", () => {
  test("passes the file saved; names a truncated or changed one", async () => {
    const bytes = new TextEncoder().encode("sky");
    const entry = await savedFileOf("environment.env", bytes);
    expect(entry).toEqual({ path: "environment.env", bytes: 3, sha256: await sha256Hex(bytes) });
    await expect(checkSavedFile(entry, bytes)).resolves.toBeUndefined();
    await expect(checkSavedFile(entry, bytes.subarray(0, 2))).rejects.toThrow("environment.env is 2 bytes, but skybox.json says 3");
    await expect(checkSavedFile(entry, new TextEncoder().encode("sea"))).rejects.toThrow(
      /^environment\.env does not match its SHA-256 in skybox\.json/,
    );
  });

  test("hashes as SHA-256 does", async () => {
    expect(await sha256Hex(new TextEncoder().encode("abc"))).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
});
