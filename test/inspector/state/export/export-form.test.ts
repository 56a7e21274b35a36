import { describe, expect, test } from "vitest";
import { EXPORT_RESOLUTIONS, HDRI_MODES, MESH_QUALITIES, type ExportType } from "../../../../src/api/index.ts";
import { DEFAULT_EXPORT_CHOICE, normalizeChoice, optionsFor, typesFor } from "../../../../src/inspector/state/export/export-form.ts";
import { exportParams, type ExportCatalog } from "../../../../src/scene/exports/export-catalog.ts";

/** The scene's catalogue with these types and the spec's other lists. */
const catalog = (types: readonly ExportType[]): ExportCatalog => ({
  types,
  resolutions: EXPORT_RESOLUTIONS,
  hdriModes: HDRI_MODES,
  meshQualities: MESH_QUALITIES,
});

describe("the Export section offers only what the rules allow", () => {
  test("Model 4 has no cube maps, depth map or GLB; Model 3 has every type", () => {
    const m4 = typesFor(4, null).map((t) => t.key);
    expect(m4).not.toContain("3d-mesh-glb");
    expect(m4).not.toContain("depth-map-png");
    expect(m4.some((k) => k.startsWith("cube-map"))).toBe(false);
    expect(m4).toContain("hdri-exr");
    expect(typesFor(3, null)).toHaveLength(11);
  });

  test("ids come from the server's list, looked up by key", () => {
    const server = [
      { id: 40, name: "HDRI HDR", key: "hdri-hdr" },
      { id: 3, name: "PNG", key: "equirectangular-png" },
    ];
    expect(typesFor(3, server)).toEqual(server);
    const params = exportParams(
      "abc",
      { ...DEFAULT_EXPORT_CHOICE, typeKey: "hdri-hdr", resolution: "2K", hdriMode: "studio" },
      catalog(server),
    );
    expect(params).toEqual({ skybox_id: "abc", type_id: 40, resolution_id: 2, hdri_mode_id: 3 });
  });

  test("options per type: HDRI modes for HDRI only, mesh quality and depth scale for GLB only, resolutions per model", () => {
    expect(optionsFor("hdri-hdr", 3).hdriModes).toHaveLength(5);
    expect(optionsFor("equirectangular-png", 3).hdriModes).toEqual([]);
    const glb = optionsFor("3d-mesh-glb", 3);
    expect(glb.resolutions).toEqual([]);
    expect(glb.meshQualities.map((m) => m.name)).toEqual(["Low", "Medium", "High", "Epic"]);
    expect(glb.depthScale).toEqual({ min: 3, max: 10 });
    expect(optionsFor("equirectangular-png", 4).resolutions.map((r) => r.name)).toEqual(["1K", "2K", "4K"]);
    expect(optionsFor("equirectangular-png", 3).resolutions.map((r) => r.name)).toContain("16K");
    expect(optionsFor("depth-map-png", 3).resolutions.map((r) => r.name)).toEqual(["2K"]);
  });

  test("changing type drops the options it does not allow and fills the spec's defaults", () => {
    const hdri = normalizeChoice({ ...DEFAULT_EXPORT_CHOICE, typeKey: "hdri-exr" }, 3);
    expect(hdri).toMatchObject({ resolution: "8K", hdriMode: "realism", meshQuality: null });
    const glb = normalizeChoice({ ...hdri, typeKey: "3d-mesh-glb", depthScale: 42 }, 3);
    expect(glb).toMatchObject({ resolution: null, hdriMode: null, meshQuality: "medium", depthScale: 10 });
    // 8K is not a Model 4 resolution: back to its default, 4K; GLB is not a Model 4 type: back to PNG.
    expect(normalizeChoice({ ...DEFAULT_EXPORT_CHOICE, resolution: "8K" }, 4).resolution).toBe("4K");
    expect(normalizeChoice(glb, 4).typeKey).toBe("equirectangular-png");
    expect(exportParams("abc", glb, catalog(typesFor(3, null)))).toEqual({
      skybox_id: "abc",
      type_id: 11,
      mesh_quality_id: 2,
      depth_scale: 10,
    });
  });
});
