/**
 * The grounded background's options: off unless asked for, its defaults, and wrong values
 * refused with a sentence naming the field and its rule (never clamped).
 */
import { describe, expect, test } from "vitest";
import { parseSavedSkybox } from "../../src/api/saved/saved-files.ts";
import { resolveLoad } from "../../src/scene/saved/load-options.ts";
import { resolveParts, type ApplySkyboxOptions } from "../../src/scene/apply-options.ts";
import { defaultFlatRadius } from "../../src/scene/background/flat-ground.ts";

describe("background.ground", () => {
  test("is off unless asked for; true takes a 2-unit height and a radius of 100", () => {
    expect(resolveParts({}).background).toEqual({ blur: 0, ground: null });
    expect(resolveParts({ backdrop: false, background: { ground: true } }).background).toEqual({
      blur: 0,
      ground: { height: 2, radius: 100, flatRadius: defaultFlatRadius(2, 100) },
    });
    expect(resolveParts({ backdrop: false, background: { ground: { height: 1.6, radius: 40 } } }).background?.ground).toEqual({
      height: 1.6,
      radius: 40,
      flatRadius: defaultFlatRadius(1.6, 40),
    });
    // A wider flat ground, for objects farther out.
    expect(resolveParts({ backdrop: false, background: { ground: { flatRadius: 20 } } }).background?.ground).toEqual({
      height: 2,
      radius: 100,
      flatRadius: 20,
    });
  });

  test.each<[ApplySkyboxOptions, string]>([
    [{ backdrop: false, background: { blur: 0.3, ground: true } }, "applySkybox: background.ground: needs background.blur 0 (is 0.3)"],
    [{ background: { ground: true } }, "applySkybox: background.ground: needs backdrop false"],
    [
      { backdrop: false, background: { ground: { height: 0 } } },
      "applySkybox: background.ground.height: must be a finite number of at least 0.001 (is 0)",
    ],
    [
      { backdrop: false, background: { ground: { height: 10, radius: 12 } } },
      "applySkybox: background.ground.radius: must be more than 1.5 × background.ground.height (15) (is 12)",
    ],
    [
      { backdrop: false, background: { ground: { flatRadius: 0 } } },
      "applySkybox: background.ground.flatRadius: must be more than 0 and at most 66.637, where the ray to its edge is 2/3 of background.ground.radius (the far ground needs room out to the sphere) (is 0)",
    ],
    [
      { backdrop: false, background: { ground: { height: 2, radius: 30, flatRadius: 25 } } },
      "applySkybox: background.ground.flatRadius: must be more than 0 and at most 19.9, where the ray to its edge is 2/3 of background.ground.radius (the far ground needs room out to the sphere) (is 25)",
    ],
    [
      { backdrop: false, background: { ground: { flatRadius: "wide" as never } } },
      'applySkybox: background.ground.flatRadius: must be a finite number of at least 0 (is "wide")',
    ],
    [
      { backdrop: false, background: { ground: "yes" as never } },
      'applySkybox: background.ground: must be a boolean or an object of ground settings (is "yes")',
    ],
  ])("%j is refused", (options, message) => {
    expect(() => resolveParts(options)).toThrow(message);
  });

  test("loadSkybox takes it too, over a saved folder without a backdrop", () => {
    const file = (path: string) => ({ path, bytes: 3, sha256: "a".repeat(64) });
    const manifest = parseSavedSkybox({
      format: 1,
      skybox: { id: 7, obfuscated_id: "abc", title: "Dunes", prompt: "desert", style: { id: 2, name: "Realistic" }, seed: 42, model: 3 },
      settings: { rotation: 0, intensity: 1, backgroundBlur: 0, backdrop: null },
      sun: null,
      files: {
        environment: { ...file("environment.env"), format: "env" },
        background: { ...file("background.jpg"), width: 4096, height: 2048 },
      },
      saved: { by: "pane", at: "2026-11-26T10:00:00.000Z" },
    });
    expect(resolveLoad(manifest, { background: { ground: { height: 3 } } }).background).toEqual({
      blur: 0,
      ground: { height: 3, radius: 100, flatRadius: defaultFlatRadius(3, 100) },
    });
    expect(() => resolveLoad(manifest, { background: { blur: 0.5, ground: true } })).toThrow(
      "loadSkybox: background.ground: needs background.blur 0 (is 0.5)",
    );
  });
});
