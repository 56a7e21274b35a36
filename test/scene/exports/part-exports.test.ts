import { describe, expect, test } from "vitest";
import { EXPORT_TYPES, type Generation } from "../../../src/api/index.ts";
import { exportParams } from "../../../src/scene/exports/export-catalog.ts";
import { backdropExport, effectiveSource, lightingExport, modelOf, pickResolution } from "../../../src/scene/exports/part-exports.ts";
import { envKey, exportKey } from "../../../src/scene/cache/cache-keys.ts";
import { powerOfTwo, resolveParts } from "../../../src/scene/apply-options.ts";

const lighting = (o: Parameters<typeof resolveParts>[0]["lighting"] = {}) => resolveParts({ lighting: o }).lighting!;
const backdrop = resolveParts({}).backdrop!;

describe("which exports applySkybox uses", () => {
  test("defaults: hdri-hdr at the smallest resolution holding the cube (1K for 256), realism, for both models", () => {
    expect(lightingExport(3, lighting())).toEqual({
      typeKey: "hdri-hdr",
      resolution: "1K",
      hdriMode: "realism",
      meshQuality: null,
      depthScale: null,
    });
    expect(lightingExport(4, lighting())).toMatchObject({ typeKey: "hdri-hdr", resolution: "1K" });
    expect(lightingExport(3, lighting({ size: 512 }))!.resolution).toBe("2K");
    expect(lightingExport(3, lighting({ size: 1000 }))!.resolution).toBe("4K"); // rounded up to 1024
    // Model 4 stops at 4K; Model 3 goes to 16K.
    expect(lightingExport(4, lighting({ size: 4096 }))!.resolution).toBe("4K");
    expect(lightingExport(3, lighting({ size: 4096 }))!.resolution).toBe("16K");
    expect(lightingExport(3, lighting({ source: "hdri-exr", hdriMode: "studio", resolution: "8K" }))).toMatchObject({
      typeKey: "hdri-exr",
      resolution: "8K",
      hdriMode: "studio",
    });
  });

  test("cube maps and GLB do not exist for Model 4: lighting falls back to the panorama, the backdrop is built from the depth map", () => {
    expect(lightingExport(3, lighting({ source: "cube-map" }))).toEqual({
      typeKey: "cube-map-default-png",
      resolution: "1K",
      hdriMode: null,
      meshQuality: null,
      depthScale: null,
    });
    expect(effectiveSource(4, lighting({ source: "cube-map" }))).toBe("equirect");
    expect(lightingExport(4, lighting({ source: "cube-map" }))).toBeNull();
    expect(lightingExport(3, lighting({ source: "equirect" }))).toBeNull();
    expect(backdropExport(3, backdrop)).toEqual({
      typeKey: "3d-mesh-glb",
      resolution: null,
      hdriMode: null,
      meshQuality: "medium",
      depthScale: 3,
    });
    expect(backdropExport(4, backdrop)).toBeNull();
    expect(pickResolution("cube-map-default-png", 3, 50_000)).toBe("16K");
  });

  test("options: parts on by default, false turns one off, sizes become powers of two", () => {
    expect(resolveParts({})).toMatchObject({
      lighting: { size: 256, quality: 64, intensity: 1, source: "hdri-hdr" },
      background: { blur: 0 },
      backdrop: { meshQuality: "medium", depthScale: 3, radius: null },
      rotation: 0,
    });
    expect(resolveParts({ lighting: false, background: false, backdrop: false })).toMatchObject({
      lighting: null,
      background: null,
      backdrop: null,
    });
    expect(resolveParts({ background: { blur: 1 }, backdrop: { depthScale: 10, radius: 80 }, lighting: { size: 300 } })).toMatchObject({
      background: { blur: 1 },
      backdrop: { depthScale: 10, radius: 80 },
      lighting: { size: 512 },
    });
    expect([1, 3, 64, 200, 256, 257].map(powerOfTwo)).toEqual([1, 4, 64, 256, 256, 512]);
  });

  test("a number option outside its rule throws, naming the option and the rule, never clamped", () => {
    const wrong: [Parameters<typeof resolveParts>[0], string][] = [
      [{ background: { blur: 3 } }, "applySkybox: background.blur: must be a finite number from 0 to 1 (is 3)"],
      [{ backdrop: { depthScale: 40 } }, "applySkybox: backdrop.depthScale: must be a finite number from 3 to 10 (is 40)"],
      [{ backdrop: { radius: 0 } }, "applySkybox: backdrop.radius: must be a finite number of at least 0.001 (is 0)"],
      [{ lighting: { intensity: -1 } }, "applySkybox: lighting.intensity: must be a finite number of at least 0 (is -1)"],
      [{ lighting: { quality: 0 } }, "applySkybox: lighting.quality: must be a finite number of at least 1 (is 0)"],
      [{ lighting: { size: Number.NaN } }, "applySkybox: lighting.size: must be a finite number from 1 to 16384 (is NaN)"],
      [{ rotation: "1" as unknown as number }, 'applySkybox: rotation: must be a finite number (is "1")'],
      [{ rotation: Infinity }, "applySkybox: rotation: must be a finite number (is Infinity)"],
    ];
    for (const [options, message] of wrong) expect(() => resolveParts(options), message).toThrow(message);
  });

  test("the model comes from the record's label, or the caller", () => {
    const record = (model?: string) => ({ id: 1, obfuscated_id: "x", status: "complete", model }) as unknown as Generation;
    expect(modelOf(record("Model 4"))).toBe(4);
    expect(modelOf(record("Model 3"))).toBe(3);
    expect(modelOf(record())).toBe(3);
    expect(modelOf(record(), 4)).toBe(4);
  });

  test("ids come from the server's lists, looked up by key", () => {
    const catalog = {
      types: EXPORT_TYPES.map((t) => ({ ...t, id: t.id + 100 })),
      resolutions: [{ id: 71, name: "1K" }],
      hdriModes: [{ id: 92, name: "Realism", key: "realism" }],
      meshQualities: [{ id: 3, name: "Medium", key: "medium" }],
    };
    expect(exportParams("abc", lightingExport(3, lighting())!, catalog)).toEqual({
      skybox_id: "abc",
      type_id: 104,
      resolution_id: 71,
      hdri_mode_id: 92,
    });
    expect(exportParams("abc", backdropExport(3, backdrop)!, catalog)).toEqual({
      skybox_id: "abc",
      type_id: 111,
      mesh_quality_id: 3,
      depth_scale: 3,
    });
    expect(() => exportParams("abc", lightingExport(3, lighting({ size: 512 }))!, catalog)).toThrow(/no resolution "2K"/);
    expect(() => exportParams("abc", lightingExport(3, lighting())!, { ...catalog, types: [] })).toThrow(/no hdri-hdr export/);
  });

  test("cache keys change with everything that changes the bytes, and nothing else", () => {
    const l = lighting();
    const choice = lightingExport(3, l);
    const key = envKey("abc", "hdri-hdr", choice, l);
    expect(envKey("abc", "hdri-hdr", choice, { ...l, intensity: 3 })).toBe(key);
    expect(envKey("abc", "hdri-hdr", choice, { ...l, size: 128 })).not.toBe(key);
    expect(envKey("abc", "hdri-hdr", choice, { ...l, quality: 16 })).not.toBe(key);
    expect(envKey("abd", "hdri-hdr", choice, l)).not.toBe(key);
    expect(envKey("abc", "hdri-hdr", lightingExport(3, lighting({ hdriMode: "studio" })), l)).not.toBe(key);
    expect(exportKey("abc", backdropExport(3, backdrop)!)).not.toBe(exportKey("abc", backdropExport(3, { ...backdrop, depthScale: 5 })!));
  });
});
