/**
 * What an export may ask for, by the spec's rules: the resolutions of a type for a model,
 * HDRI modes for HDRI types only, mesh quality and depth scale for GLB only. Pure
 * functions, so the Export section never offers an option the API would refuse.
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
  type ExportParams,
  type ExportType,
} from "../../api/index.ts";

/** The options chosen in the Export section. */
export interface ExportChoice {
  typeKey: string;
  resolutionId: number | null;
  hdriModeId: number | null;
  meshQualityId: number | null;
  depthScale: number;
}

export const DEFAULT_EXPORT_CHOICE: ExportChoice = {
  typeKey: "equirectangular-png",
  resolutionId: null,
  hdriModeId: null,
  meshQualityId: null,
  depthScale: DEPTH_SCALE.default,
};

/** Which options a type shows for a model. */
export interface ExportOptions {
  resolutions: readonly { id: number; name: string }[];
  hdriModes: readonly { id: number; name: string }[];
  meshQualities: readonly { id: number; name: string }[];
  /** Depth scale range, for GLB only. */
  depthScale: { min: number; max: number } | null;
}

/** The export types of a model, with the ids the server gave (looked up by key). */
export function typesFor(model: 3 | 4, serverTypes: readonly ExportType[] | null): ExportType[] {
  const keys = new Set(exportTypesFor(model).map((t) => t.key));
  return (serverTypes?.length ? serverTypes : EXPORT_TYPES).filter((t) => keys.has(t.key)).map((t) => ({ id: t.id, name: t.name, key: t.key }));
}

export function optionsFor(typeKey: string, model: 3 | 4): ExportOptions {
  return {
    resolutions: resolutionsFor(typeKey, model),
    hdriModes: isHdriType(typeKey) ? HDRI_MODES : [],
    meshQualities: isMeshType(typeKey) ? MESH_QUALITIES : [],
    depthScale: isMeshType(typeKey) ? { min: DEPTH_SCALE.min, max: DEPTH_SCALE.max } : null,
  };
}

/** The choice with every option the type does not allow dropped and the spec's defaults filled in. */
export function normalizeChoice(choice: ExportChoice, model: 3 | 4): ExportChoice {
  const typeKey = exportTypesFor(model).some((t) => t.key === choice.typeKey) ? choice.typeKey : DEFAULT_EXPORT_CHOICE.typeKey;
  const o = optionsFor(typeKey, model);
  const keep = (id: number | null, list: readonly { id: number }[], fallback: number | null) => (id != null && list.some((x) => x.id === id) ? id : fallback);
  return {
    typeKey,
    resolutionId: keep(choice.resolutionId, o.resolutions, defaultResolution(typeKey, model)?.id ?? null),
    hdriModeId: keep(choice.hdriModeId, o.hdriModes, o.hdriModes.length ? HDRI_MODES.find((m) => m.key === DEFAULT_HDRI_MODE)!.id : null),
    meshQualityId: keep(choice.meshQualityId, o.meshQualities, o.meshQualities.length ? MESH_QUALITIES.find((m) => m.key === DEFAULT_MESH_QUALITY)!.id : null),
    depthScale: Math.min(DEPTH_SCALE.max, Math.max(DEPTH_SCALE.min, choice.depthScale)),
  };
}

/** The body of POST /skybox/export for a complete skybox; only the options its type allows. */
export function exportParamsOf(choice: ExportChoice, skyboxObfuscatedId: string, types: readonly ExportType[]): ExportParams {
  const type = types.find((t) => t.key === choice.typeKey);
  if (!type) throw new Error(`The export type ${choice.typeKey} is not offered by the service`);
  const p: ExportParams = { skybox_id: skyboxObfuscatedId, type_id: type.id };
  if (isMeshType(type.key)) {
    p.mesh_quality_id = choice.meshQualityId;
    p.depth_scale = choice.depthScale;
    return p;
  }
  if (choice.resolutionId != null) p.resolution_id = choice.resolutionId;
  if (isHdriType(type.key) && choice.hdriModeId != null) p.hdri_mode_id = choice.hdriModeId;
  return p;
}
