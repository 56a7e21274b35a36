import type { ExportParams } from "../requests/export-params.ts";
import { EXPORT_RESOLUTIONS, EXPORT_TYPES, HDRI_MODES, MESH_QUALITIES, type ExportTypeKey } from "../reference.ts";
import { issue, type RuleIssue } from "./rule-issue.ts";

type Resolution = (typeof EXPORT_RESOLUTIONS)[number];
type MeshQualityEntry = (typeof MESH_QUALITIES)[number];
type HdriModeEntry = (typeof HDRI_MODES)[number];
type ExportTypeEntry = { id: number; name: string; key: string };

const HDRI_TYPES: readonly string[] = ["hdri-hdr", "hdri-exr"];
const GLB = "3d-mesh-glb";
const DEPTH = "depth-map-png";
/** Export types Model 4 does not offer (cube maps, depth map, GLB). */
const NOT_FOR_MODEL_4: readonly string[] = ["cube-map-roblox-png", "cube-map-default-png", DEPTH, GLB];
const MODEL_4_RESOLUTIONS: readonly string[] = ["1K", "2K", "4K"];

/** The GLB export's `depth_scale` range and default. */
export const DEPTH_SCALE = { min: 3, max: 10, default: 3 } as const;
/** The HDRI mode an HDRI export gets when none is given. */
export const DEFAULT_HDRI_MODE = "realism";
/** The mesh quality a GLB export gets when none is given. */
export const DEFAULT_MESH_QUALITY = "medium";

/** What is known when checking an export: the skybox's model and the server's type list. */
export interface ExportContext {
  model?: 3 | 4 | null;
  /** Export types as GET /skybox/export returned them; ids are looked up here first. */
  types?: readonly ExportTypeEntry[] | null;
}

/** True for the HDRI export types (`hdri-hdr`, `hdri-exr`). */
export const isHdriType = (key: string) => HDRI_TYPES.includes(key);
/** True for the GLB export type. */
export const isMeshType = (key: string) => key === GLB;
/** True for the depth map export type. */
export const isDepthType = (key: string) => key === DEPTH;

/** Export types available for a model. */
export function exportTypesFor(model: 3 | 4): readonly ExportTypeEntry[] {
  return EXPORT_TYPES.filter((t) => model === 3 || !NOT_FOR_MODEL_4.includes(t.key));
}

/** Resolutions a type allows for a model; empty for GLB, whose mesh quality replaces it. */
export function resolutionsFor(typeKey: string, model: 3 | 4): readonly Resolution[] {
  if (isMeshType(typeKey)) return [];
  if (isDepthType(typeKey)) return EXPORT_RESOLUTIONS.filter((r) => r.name === "2K");
  if (model === 4) return EXPORT_RESOLUTIONS.filter((r) => MODEL_4_RESOLUTIONS.includes(r.name));
  return EXPORT_RESOLUTIONS;
}

/** Default resolution: 2K for depth maps, 4K for Model 4, 8K otherwise; null for GLB. */
export function defaultResolution(typeKey: string, model: 3 | 4): Resolution | null {
  if (isMeshType(typeKey)) return null;
  const name = isDepthType(typeKey) ? "2K" : model === 4 ? "4K" : "8K";
  return EXPORT_RESOLUTIONS.find((r) => r.name === name) ?? null;
}

/** The export type with that id, among those offered for the context's model (or all). */
export function exportTypeById(id: number, ctx: ExportContext = {}): ExportTypeEntry | undefined {
  return (ctx.types ?? EXPORT_TYPES).find((t) => t.id === id);
}

/** An export with every default of the spec applied. */
export interface ResolvedExport {
  // `string & {}` keeps the known keys in an editor's completions while a server may name others.
  type: ExportTypeEntry & { key: ExportTypeKey | (string & {}) };
  resolution: Resolution | null;
  hdriMode: HdriModeEntry | null;
  meshQuality: MeshQualityEntry | null;
  depthScale: number | null;
}

/** Checks an export request against the spec's rules; an empty list means it may be sent. */
export function checkExport(p: ExportParams, ctx: ExportContext = {}): RuleIssue[] {
  const type = exportTypeById(Number(p.type_id), ctx);
  if (!type) return [issue("type_id", "export-type-exists", `is not an export type (${p.type_id})`)];
  const model = ctx.model ?? null;
  const out: RuleIssue[] = [];
  if (model === 4 && NOT_FOR_MODEL_4.includes(type.key))
    out.push(issue("type_id", "model4-export-types", `${type.name} is not available for Model 4 skyboxes`));
  out.push(...checkResolution(p, type, model), ...checkOptions(p, type));
  return out;
}

function checkResolution(p: ExportParams, type: ExportTypeEntry, model: 3 | 4 | null): RuleIssue[] {
  if (p.resolution_id == null || isMeshType(type.key)) return [];
  const resolution = EXPORT_RESOLUTIONS.find((r) => r.id === Number(p.resolution_id));
  if (!resolution) return [issue("resolution_id", "resolution-exists", `is not a resolution (${p.resolution_id})`)];
  const allowed = resolutionsFor(type.key, model ?? 3);
  if (allowed.some((r) => r.id === resolution.id)) return [];
  const names = allowed.map((r) => r.name).join(", ");
  const who = isDepthType(type.key) ? "Depth maps" : model === 4 ? "Model 4 exports" : type.name;
  return [issue("resolution_id", "resolution-allowed", `${resolution.name} is not available: ${who} support ${names}`)];
}

function checkOptions(p: ExportParams, type: ExportTypeEntry): RuleIssue[] {
  const out: RuleIssue[] = [];
  if (p.hdri_mode_id != null) {
    if (!isHdriType(type.key)) out.push(issue("hdri_mode_id", "hdri-mode-hdri-only", "applies to HDRI exports (hdri-hdr, hdri-exr) only"));
    else if (!HDRI_MODES.some((m) => m.id === Number(p.hdri_mode_id)))
      out.push(issue("hdri_mode_id", "hdri-mode-exists", `is not an HDRI mode (${p.hdri_mode_id})`));
  }
  if (p.mesh_quality_id != null) {
    if (!isMeshType(type.key)) out.push(issue("mesh_quality_id", "mesh-quality-glb-only", "applies to GLB exports only"));
    else if (!MESH_QUALITIES.some((m) => m.id === Number(p.mesh_quality_id)))
      out.push(issue("mesh_quality_id", "mesh-quality-exists", `is not a mesh quality (${p.mesh_quality_id})`));
  }
  if (p.depth_scale != null) {
    const d = Number(p.depth_scale);
    if (!isMeshType(type.key)) out.push(issue("depth_scale", "depth-scale-glb-only", "applies to GLB exports only"));
    else if (!(d >= DEPTH_SCALE.min && d <= DEPTH_SCALE.max))
      out.push(
        issue("depth_scale", "depth-scale-range", `must be between ${DEPTH_SCALE.min} and ${DEPTH_SCALE.max} (is ${p.depth_scale})`),
      );
  }
  return out;
}

/** Applies the spec's defaults to a valid request (check it with `checkExport` first). */
export function resolveExport(p: ExportParams, model: 3 | 4, ctx: ExportContext = {}): ResolvedExport {
  const type = exportTypeById(Number(p.type_id), ctx);
  if (!type) throw new Error(`unknown export type ${p.type_id}`);
  const byId = EXPORT_RESOLUTIONS.find((r) => r.id === Number(p.resolution_id));
  const resolution = isMeshType(type.key) ? null : (byId ?? defaultResolution(type.key, model));
  const hdriMode = isHdriType(type.key)
    ? (HDRI_MODES.find((m) => m.id === Number(p.hdri_mode_id ?? NaN)) ?? HDRI_MODES.find((m) => m.key === DEFAULT_HDRI_MODE)!)
    : null;
  const meshQuality = isMeshType(type.key)
    ? (MESH_QUALITIES.find((m) => m.id === Number(p.mesh_quality_id ?? NaN)) ?? MESH_QUALITIES.find((m) => m.key === DEFAULT_MESH_QUALITY)!)
    : null;
  const depthScale = isMeshType(type.key) ? Number(p.depth_scale ?? DEPTH_SCALE.default) : null;
  return { type, resolution, hdriMode, meshQuality, depthScale };
}

/** Exports that complete at once on request (spec "States"): JPG and Depth Map. */
export function completesImmediately(typeKey: string): boolean {
  return typeKey === "equirectangular-jpg" || typeKey === DEPTH;
}
