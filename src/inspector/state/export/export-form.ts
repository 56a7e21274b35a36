/**
 * What the Export section may ask for, by the spec's rules: the types of a model, the
 * resolutions of a type for a model, HDRI modes for HDRI types only, mesh quality and depth
 * scale for GLB only. The choice is the scene's `ExportChoice` (by key: ids are looked up in
 * the server's catalogue when the request is sent). Pure functions, so the Export section
 * never offers an option the API would refuse.
 */
import {
  DEFAULT_HDRI_MODE,
  DEFAULT_MESH_QUALITY,
  DEPTH_SCALE,
  EXPORT_TYPES,
  HDRI_MODES,
  MESH_QUALITIES,
  defaultResolution,
  exportTypesFor,
  isHdriType,
  isMeshType,
  resolutionsFor,
  type EXPORT_RESOLUTIONS,
  type ExportType,
  type HdriModeKey,
  type MeshQualityKey,
} from "../../../api/index.ts";
import { offers, type ExportChoice } from "../../../scene/exports/part-exports.ts";

export const DEFAULT_EXPORT_CHOICE: ExportChoice = {
  typeKey: "equirectangular-png",
  resolution: null,
  hdriMode: null,
  meshQuality: null,
  depthScale: null,
};

/** Which options a type shows for a model (the spec's lists: resolutions by name, modes and qualities by key). */
export interface ExportOptions {
  resolutions: readonly (typeof EXPORT_RESOLUTIONS)[number][];
  hdriModes: typeof HDRI_MODES | readonly [];
  meshQualities: typeof MESH_QUALITIES | readonly [];
  /** Depth scale range, for GLB only. */
  depthScale: { min: number; max: number } | null;
}

/** The export types of a model, with the ids the server gave (looked up by key). */
export function typesFor(model: 3 | 4, serverTypes: readonly ExportType[] | null): ExportType[] {
  const keys = new Set(exportTypesFor(model).map((t) => t.key));
  return (serverTypes?.length ? serverTypes : EXPORT_TYPES)
    .filter((t) => keys.has(t.key))
    .map((t) => ({ id: t.id, name: t.name, key: t.key }));
}

export function optionsFor(typeKey: string, model: 3 | 4): ExportOptions {
  return {
    resolutions: resolutionsFor(typeKey, model),
    hdriModes: isHdriType(typeKey) ? HDRI_MODES : [],
    meshQualities: isMeshType(typeKey) ? MESH_QUALITIES : [],
    depthScale: isMeshType(typeKey) ? { min: DEPTH_SCALE.min, max: DEPTH_SCALE.max } : null,
  };
}

/** `wanted` when the list has it, else `fallback`. */
function kept<T extends string>(wanted: T | null, list: readonly string[], fallback: T | null): T | null {
  return wanted != null && list.includes(wanted) ? wanted : fallback;
}

/** The choice with every option the type does not allow dropped and the spec's defaults filled in. */
export function normalizeChoice(choice: ExportChoice, model: 3 | 4): ExportChoice {
  const typeKey = offers(model, choice.typeKey) ? choice.typeKey : DEFAULT_EXPORT_CHOICE.typeKey;
  const o = optionsFor(typeKey, model);
  const hdri = o.hdriModes.map((m) => m.key);
  const mesh = o.meshQualities.map((m) => m.key);
  const depth = choice.depthScale ?? DEPTH_SCALE.default;
  return {
    typeKey,
    resolution: kept(
      choice.resolution,
      o.resolutions.map((r) => r.name),
      defaultResolution(typeKey, model)?.name ?? null,
    ),
    hdriMode: kept<HdriModeKey>(choice.hdriMode, hdri, hdri.length ? DEFAULT_HDRI_MODE : null),
    meshQuality: kept<MeshQualityKey>(choice.meshQuality, mesh, mesh.length ? DEFAULT_MESH_QUALITY : null),
    depthScale: o.depthScale ? Math.min(o.depthScale.max, Math.max(o.depthScale.min, depth)) : null,
  };
}
