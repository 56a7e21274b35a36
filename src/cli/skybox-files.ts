/**
 * The files of a saved skybox gathered from the service for `babylon-skybox save`: the
 * complete record, the HDRI export (a `.hdr`: Node has no GPU to bake a `.env`), the
 * panorama, the backdrop (the GLB export for Model 3, the depth map for Model 4) and the
 * sun found in the HDRI. Exports are requested and followed as `applySkybox` does.
 */
import type { SkyboxClient } from "../api/client/create-client.ts";
import type { MeshQualityKey, ResolutionName } from "../api/reference.ts";
import type { Generation } from "../api/schemas/generation.ts";
import type { SavedSun } from "../api/saved/saved-skybox.ts";
import { downloadBytes } from "../scene/exports/download.ts";
import { loadExportCatalog } from "../scene/exports/export-catalog.ts";
import { describeChoice, modelOf, pickResolution, type ExportChoice } from "../scene/exports/part-exports.ts";
import { obtainExport, type ExportContext } from "../scene/exports/obtain-export.ts";
import { completeRecord } from "../scene/skybox-record.ts";
import { detectSun } from "../scene/analysis/detect-sun.ts";
import { decodeHdr } from "../scene/analysis/hdr-pixels.ts";
import { createStatusTracker } from "../status/create-tracker.ts";
import { DEFAULT_HDRI_MODE } from "../api/rules/export-rules.ts";

/** What to gather. */
export interface GatherOptions {
  /** Resolution of the `.hdr`. @default the smallest of at least 1024 wide (a 256 cube) */
  hdrResolution?: ResolutionName | undefined;
  /** The backdrop's settings, or null for none. */
  backdrop: { meshQuality: MeshQualityKey; depthScale: number } | null;
  /** Told of each step. */
  log: (line: string) => void;
}

/** What was gathered. */
export interface SkyboxFiles {
  record: Generation;
  model: 3 | 4;
  hdr: Uint8Array;
  panorama: Uint8Array;
  backdrop: { format: "glb" | "depth-png"; bytes: Uint8Array } | null;
  sun: SavedSun | null;
}

/**
 * @param client a client of the service (through the proxy, or with the key)
 * @param baseUrl where relative file URLs resolve (the client's base URL)
 * @param id the skybox's numeric or obfuscated id
 * @param options what to gather
 */
export async function gatherSkyboxFiles(
  client: SkyboxClient,
  baseUrl: string,
  id: number | string,
  options: GatherOptions,
): Promise<SkyboxFiles> {
  const tracker = createStatusTracker({ client, pollIntervalMs: 1000 });
  try {
    // Read once first: an unreachable service or an unknown id fails at once instead of being watched.
    const first = typeof id === "number" ? await client.getGeneration(id) : await client.getGenerationByObfuscatedId(id);
    const record = await completeRecord(first, tracker, (p) => options.log(`waiting: ${p.detail ?? ""}`));
    const model = modelOf(record);
    const ctx: ExportContext = { client, tracker, catalog: () => (catalog ??= loadExportCatalog(client)) };
    let catalog: ReturnType<typeof loadExportCatalog> | undefined;
    const hdrChoice: ExportChoice = {
      typeKey: "hdri-hdr",
      resolution: options.hdrResolution ?? pickResolution("hdri-hdr", model, 1024),
      hdriMode: DEFAULT_HDRI_MODE,
      meshQuality: null,
      depthScale: null,
    };
    const exported = async (choice: ExportChoice) => {
      options.log(`export: ${describeChoice(choice)}`);
      return download(await obtainExport(ctx, record.obfuscated_id, model, choice), baseUrl, describeChoice(choice));
    };
    const backdrop = async (): Promise<SkyboxFiles["backdrop"]> => {
      if (!options.backdrop) return null;
      if (model === 4) {
        if (!record.depth_map_url) throw new Error(`Skybox ${record.id} (Model 4) has no depth_map_url for its backdrop`);
        return { format: "depth-png", bytes: await download(record.depth_map_url, baseUrl, "depth map") };
      }
      const glb: ExportChoice = { typeKey: "3d-mesh-glb", resolution: null, hdriMode: null, ...options.backdrop };
      return { format: "glb", bytes: await exported(glb) };
    };
    const [hdr, panorama, backdropFile] = await Promise.all([
      exported(hdrChoice),
      download(record.file_url, baseUrl, "panorama"),
      backdrop(),
    ]);
    options.log("finding the sun in the HDRI");
    const sun = detectSun(decodeHdr(hdr));
    return { record, model, hdr, panorama, backdrop: backdropFile, sun };
  } finally {
    tracker.dispose();
  }
}

/** A skybox file, its URL resolved against the API's (downloadBytes retries as the pane's downloads do). */
async function download(url: string, baseUrl: string, label: string): Promise<Uint8Array> {
  if (!url) throw new Error(`The skybox has no ${label} URL`);
  return downloadBytes(new URL(url, baseUrl).href, label, {});
}
