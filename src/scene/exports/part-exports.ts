/**
 * Which export of a skybox each part uses, from its model and the caller's options, and
 * how the skybox's model is read from its record.
 */
import {
  EXPORT_RESOLUTIONS,
  EXPORT_TYPES,
  type ExportTypeKey,
  type HdriModeKey,
  type MeshQualityKey,
  type ResolutionName,
} from "../../api/reference.ts";
import { DEFAULT_HDRI_MODE, exportTypesFor, resolutionsFor } from "../../api/rules/export-rules.ts";
import { recordModel } from "../../api/rules/record-model.ts";
import type { Generation } from "../../api/schemas/generation.ts";
import type { LightingSource, ResolvedBackdrop, ResolvedLighting } from "../apply-options.ts";

/** One export request, by keys (ids are looked up in the server's lists). */
export interface ExportChoice {
  typeKey: ExportTypeKey;
  resolution: ResolutionName | null;
  hdriMode: HdriModeKey | null;
  meshQuality: MeshQualityKey | null;
  depthScale: number | null;
}

const SOURCE_TYPES: Record<Exclude<LightingSource, "equirect">, ExportTypeKey> = {
  "hdri-hdr": "hdri-hdr",
  "hdri-exr": "hdri-exr",
  "cube-map": "cube-map-default-png",
};

/** The skybox's model: `fallback` (the caller's), else what the record tells (`recordModel`). */
export function modelOf(record: Generation, fallback?: 3 | 4): 3 | 4 {
  return fallback ?? recordModel(record);
}

/** True when the model offers this export type (`exportTypesFor`). */
export function offers(model: 3 | 4, typeKey: ExportTypeKey): boolean {
  return exportTypesFor(model).some((t) => t.key === typeKey);
}

/**
 * The source lighting actually uses: the caller's, or `equirect` when the model has no such
 * export (cube maps do not exist for Model 4).
 */
export function effectiveSource(model: 3 | 4, lighting: ResolvedLighting): LightingSource {
  if (lighting.source === "equirect") return "equirect";
  return offers(model, SOURCE_TYPES[lighting.source]) ? lighting.source : "equirect";
}

/** The export lighting needs, or null when it uses the generation's panorama (`equirect`). */
export function lightingExport(model: 3 | 4, lighting: ResolvedLighting): ExportChoice | null {
  const source = effectiveSource(model, lighting);
  if (source === "equirect") return null;
  const typeKey = SOURCE_TYPES[source];
  // A cube face is a quarter of the equirectangular width: that is what must cover `size`.
  const resolution = lighting.resolution ?? pickResolution(typeKey, model, 4 * lighting.size);
  const hdri = typeKey === "hdri-hdr" || typeKey === "hdri-exr";
  return { typeKey, resolution, hdriMode: hdri ? lighting.hdriMode : null, meshQuality: null, depthScale: null };
}

/** The HDRI export the sun is found in, and whether it is the lighting's own (its pixels are the environment's). */
export interface SunExport {
  choice: ExportChoice;
  lightingsOwn: boolean;
}

/**
 * The HDRI export the sun is found in: at `resolution` when given; else the lighting's own
 * when it lights with an `hdri-hdr` of 2K or less (one download for both); else the 1K one
 * (an 8K HDRI takes seconds to decode, and 1K places the sun within a tenth of a degree).
 * Always in the lighting's HDRI mode, so the sun matches the light it is taken out of.
 */
export function sunExport(model: 3 | 4, lighting: ResolvedLighting | null, resolution: ResolutionName | null): SunExport {
  const shared = lighting && effectiveSource(model, lighting) === "hdri-hdr" ? lightingExport(model, lighting)! : null;
  const width = (name: ResolutionName | null) => EXPORT_RESOLUTIONS.find((r) => r.name === name)?.width ?? Infinity;
  if (shared && (resolution === null ? width(shared.resolution) <= 2048 : shared.resolution === resolution))
    return { choice: shared, lightingsOwn: true };
  const hdriMode = lighting?.hdriMode ?? DEFAULT_HDRI_MODE;
  return {
    choice: {
      typeKey: "hdri-hdr",
      resolution: resolution ?? pickResolution("hdri-hdr", model, 1024),
      hdriMode,
      meshQuality: null,
      depthScale: null,
    },
    lightingsOwn: false,
  };
}

/** The GLB export the backdrop needs, or null for Model 4 (built from the depth map instead). */
export function backdropExport(model: 3 | 4, backdrop: ResolvedBackdrop): ExportChoice | null {
  if (!offers(model, "3d-mesh-glb")) return null;
  return { typeKey: "3d-mesh-glb", resolution: null, hdriMode: null, meshQuality: backdrop.meshQuality, depthScale: backdrop.depthScale };
}

/** The smallest resolution of the type and model at least `width` wide, else the largest. */
export function pickResolution(typeKey: ExportTypeKey, model: 3 | 4, width: number): ResolutionName {
  const allowed = [...resolutionsFor(typeKey, model)].sort((a, b) => a.width - b.width);
  const fit = allowed.find((r) => r.width >= width) ?? allowed[allowed.length - 1];
  if (!fit) throw new Error(`No resolution is available for ${typeKey} exports of Model ${model} skyboxes`);
  return fit.name;
}

/** A short label of a choice, for progress details and error messages. */
export function describeChoice(choice: ExportChoice): string {
  const extra = [choice.resolution, choice.hdriMode, choice.meshQuality, choice.depthScale != null ? `depth ${choice.depthScale}` : null];
  return [choice.typeKey, ...extra.filter((x) => x != null)].join(" ");
}

/** What a person calls an export type, where its catalogue name says too little. */
const EXPORT_TITLES: Partial<Record<ExportTypeKey, string>> = { "3d-mesh-glb": "GLB mesh" };

/**
 * An export in words, for progress reports: "GLB mesh, medium quality, depth scale 3",
 * "HDRI HDR 1K, realism".
 * @param choice the export
 */
export function exportTitle(choice: ExportChoice): string {
  const type = EXPORT_TITLES[choice.typeKey] ?? EXPORT_TYPES.find((t) => t.key === choice.typeKey)?.name ?? choice.typeKey;
  const extra = [
    choice.hdriMode,
    choice.meshQuality && `${choice.meshQuality} quality`,
    choice.depthScale != null ? `depth scale ${choice.depthScale}` : null,
  ];
  return [[type, choice.resolution].filter(Boolean).join(" "), ...extra.filter(Boolean)].join(", ");
}
