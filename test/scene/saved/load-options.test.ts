/**
 * loadSkybox's options over the saved settings: absent options take the manifest's values,
 * and a number outside its rule throws naming the option (never clamped into range).
 */
import { describe, expect, test } from "vitest";
import { parseSavedSkybox } from "../../../src/api/saved/saved-files.ts";
import { resolveLoad, type LoadSkyboxOptions } from "../../../src/scene/saved/load-options.ts";

const file = (path: string) => ({ path, bytes: 3, sha256: "a".repeat(64) });
const manifest = parseSavedSkybox({
  format: 1,
  skybox: { id: 7, obfuscated_id: "abc", title: "Dunes", prompt: "desert", style: { id: 2, name: "Realistic" }, seed: 42, model: 3 },
  settings: { rotation: 0.5, intensity: 1.4, backgroundBlur: 0.2, backdrop: { depthScale: 6, meshQuality: "high" } },
  sun: null,
  files: {
    environment: { ...file("environment.env"), format: "env" },
    background: { ...file("background.jpg"), width: 4096, height: 2048 },
    backdrop: { ...file("backdrop.glb"), format: "glb" },
  },
  saved: { by: "pane", at: "2026-11-26T10:00:00.000Z" },
});

describe("resolveLoad", () => {
  test("absent options are the saved settings; the caller's win", () => {
    expect(resolveLoad(manifest, {})).toMatchObject({
      lighting: { intensity: 1.4, size: 256, quality: 64 },
      background: { blur: 0.2 },
      backdrop: { radius: null, depthScale: 6, meshQuality: "high" },
      rotation: 0.5,
      sun: null,
    });
    expect(
      resolveLoad(manifest, { lighting: { intensity: 0.5 }, background: { blur: 0 }, rotation: 0, backdrop: { radius: 90 } }),
    ).toMatchObject({
      lighting: { intensity: 0.5 },
      background: { blur: 0 },
      backdrop: { radius: 90 },
      rotation: 0,
      environment: true,
    });
  });

  test.each<[LoadSkyboxOptions, string]>([
    [{ background: { blur: 1.5 } }, "loadSkybox: background.blur: must be a finite number from 0 to 1 (is 1.5)"],
    [{ lighting: { intensity: -0.1 } }, "loadSkybox: lighting.intensity: must be a finite number of at least 0 (is -0.1)"],
    [{ lighting: { size: 0 } }, "loadSkybox: lighting.size: must be a finite number from 1 to 16384 (is 0)"],
    [{ backdrop: { radius: -5 } }, "loadSkybox: backdrop.radius: must be a finite number of at least 0.001 (is -5)"],
    [{ rotation: Number.NaN }, "loadSkybox: rotation: must be a finite number (is NaN)"],
  ])("a wrong number throws naming the option (%#)", (options, message) => {
    expect(() => resolveLoad(manifest, options)).toThrow(message);
  });
});
