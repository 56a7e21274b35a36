/**
 * The ids of export types, resolutions, HDRI modes and mesh qualities, read from the server
 * (real clients look ids up by key at run time and never hard-code one they did not read),
 * with the spec's lists standing in for any list the server does not answer.
 */
import type { SceneClient } from "../scene-client.ts";
import { EXPORT_RESOLUTIONS, EXPORT_TYPES, HDRI_MODES, MESH_QUALITIES } from "../../api/reference.ts";
import type { ExportParams } from "../../api/requests/export-params.ts";
import type { ExportChoice } from "./part-exports.ts";

interface Entry {
  id: number;
  name: string;
  key?: string;
}

/** The server's export lists. */
export interface ExportCatalog {
  types: readonly { id: number; name: string; key: string }[];
  resolutions: readonly Entry[];
  hdriModes: readonly Entry[];
  meshQualities: readonly Entry[];
}

/** Reads the four lists at once; a list that fails falls back to the spec's. */
export async function loadExportCatalog(client: SceneClient, signal?: AbortSignal): Promise<ExportCatalog> {
  const opts = signal ? { signal } : {};
  const or = <T>(p: Promise<T>, fallback: T) => p.catch((error: unknown) => (signal?.aborted ? Promise.reject(error) : fallback));
  const [types, resolutions, hdriModes, meshQualities] = await Promise.all([
    or(client.exportTypes(opts), [...EXPORT_TYPES]),
    or(client.exportResolutions(opts), [...EXPORT_RESOLUTIONS]),
    or(client.hdriModes(opts), [...HDRI_MODES]),
    or(client.meshQualities(opts), [...MESH_QUALITIES]),
  ]);
  return { types, resolutions, hdriModes, meshQualities };
}

/** The request body of a choice, ids looked up by key (or name, for resolutions). */
export function exportParams(skyboxId: string, choice: ExportChoice, catalog: ExportCatalog): ExportParams {
  const type = catalog.types.find((t) => t.key === choice.typeKey);
  if (!type) throw new Error(`The server offers no ${choice.typeKey} export`);
  const params: ExportParams = { skybox_id: skyboxId, type_id: type.id };
  if (choice.resolution) params.resolution_id = idOf(catalog.resolutions, choice.resolution, "resolution");
  if (choice.hdriMode) params.hdri_mode_id = idOf(catalog.hdriModes, choice.hdriMode, "HDRI mode");
  if (choice.meshQuality) params.mesh_quality_id = idOf(catalog.meshQualities, choice.meshQuality, "mesh quality");
  if (choice.depthScale != null) params.depth_scale = choice.depthScale;
  return params;
}

function idOf(list: readonly Entry[], wanted: string, what: string): number {
  const w = wanted.toLowerCase();
  const hit = list.find((e) => e.key?.toLowerCase() === w || e.name.toLowerCase() === w);
  if (!hit) throw new Error(`The server offers no ${what} "${wanted}"`);
  return hit.id;
}
