import { describe, expect, it } from "vitest";
import { lightingExport, sunExport } from "../../../src/scene/exports/part-exports.ts";
import { resolveParts } from "../../../src/scene/apply-options.ts";
import { resolveSun } from "../../../src/scene/sun-light/sun-options.ts";

describe("the sun option", () => {
  it("is off unless asked for; true takes the defaults; an object overrides them", () => {
    expect(resolveParts({}).sun).toBeNull();
    expect(resolveSun(false)).toBeNull();
    expect(resolveSun(true)).toEqual({
      intensity: 1,
      shadows: true,
      shadowMapSize: 2048,
      cascaded: false,
      balance: true,
      replaces: [],
      resolution: null,
    });
    expect(resolveSun({ shadows: false, intensity: 3, cascaded: true, resolution: "2K" })).toEqual({
      intensity: 3,
      shadows: false,
      shadowMapSize: 2048,
      cascaded: true,
      balance: true,
      replaces: [],
      resolution: "2K",
    });
    expect(resolveParts({ sun: { shadowMapSize: 1024 } }).sun?.shadowMapSize).toBe(1024);
  });

  it("refuses wrong values with a sentence naming each field, its rule and the value", () => {
    expect(() => resolveSun({ shadowMapSize: 300 })).toThrow("applySkybox: sun.shadowMapSize: must be a power of two (is 300)");
    expect(() => resolveSun({ shadowMapSize: 16384 })).toThrow("sun.shadowMapSize: must be at most 8192 (is 16384)");
    expect(() => resolveSun({ intensity: -1 })).toThrow("sun.intensity: must be at least 0 (is -1)");
    expect(() => resolveSun({ intensity: Number.NaN })).toThrow("sun.intensity: must be a number");
    expect(() => resolveSun({ shadows: "yes" })).toThrow('sun.shadows: must be a boolean (is "yes")');
    expect(() => resolveSun({ shadow: true })).toThrow("sun: has unknown field shadow");
    expect(() => resolveSun({ resolution: "3K" })).toThrow('sun.resolution: must be one of "1K", "2K"');
    expect(() => resolveSun("on")).toThrow('applySkybox: sun: must be a boolean or an object of sun settings (is "on")');
    // Two wrong fields: both named.
    expect(() => resolveSun({ intensity: -1, cascaded: 1 })).toThrow(/sun\.intensity: .*; sun\.cascaded: must be a boolean/);
  });

  it("is checked before anything is fetched: applySkybox rejects at once", async () => {
    const { applySkybox } = await import("../../../src/scene/apply-skybox.ts");
    const client = new Proxy({}, { get: () => () => Promise.reject(new Error("nothing may be fetched")) });
    await expect(applySkybox({} as never, 1, { sun: { shadowMapSize: 3 }, client: client as never, cache: false })).rejects.toThrow(
      "sun.shadowMapSize",
    );
  });
});

describe("the export the sun is found in", () => {
  const lighting = (o: Parameters<typeof resolveParts>[0]["lighting"] = {}) => resolveParts({ lighting: o }).lighting!;
  it("is the lighting's own hdri-hdr up to 2K, else the 1K one, in the lighting's mode; or the resolution asked", () => {
    expect(sunExport(3, lighting(), null)).toEqual({ choice: lightingExport(3, lighting()), lightingsOwn: true });
    expect(sunExport(3, lighting({ resolution: "2K", hdriMode: "artistic" }), null)).toMatchObject({
      lightingsOwn: true,
      choice: { typeKey: "hdri-hdr", resolution: "2K", hdriMode: "artistic" },
    });
    expect(sunExport(3, lighting({ resolution: "8K", hdriMode: "artistic" }), null)).toMatchObject({
      lightingsOwn: false,
      choice: { typeKey: "hdri-hdr", resolution: "1K", hdriMode: "artistic" },
    });
    expect(sunExport(3, lighting({ source: "hdri-exr" }), null)).toMatchObject({
      lightingsOwn: false,
      choice: { typeKey: "hdri-hdr", resolution: "1K" },
    });
    expect(sunExport(3, null, null)).toMatchObject({
      lightingsOwn: false,
      choice: { typeKey: "hdri-hdr", resolution: "1K", hdriMode: "realism" },
    });
    expect(sunExport(3, lighting({ resolution: "8K" }), "8K")).toEqual({
      choice: lightingExport(3, lighting({ resolution: "8K" })),
      lightingsOwn: true,
    });
    expect(sunExport(4, null, "4K")).toMatchObject({ lightingsOwn: false, choice: { resolution: "4K" } });
  });
});
