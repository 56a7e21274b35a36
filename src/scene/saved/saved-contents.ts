/**
 * What "Save to project" writes of the skybox in the scene: the prefiltered environment the
 * scene shows baked to a `.env` (`bakeEnvironment`), the panorama, the backdrop's file (the
 * GLB export for Model 3, the depth map for Model 4) and, when asked, the source `.hdr`,
 * taken from the cache where the apply left them, else downloaded as `applySkybox` does.
 */
import type { HdriModeKey, MeshQualityKey, ResolutionName } from "../../api/reference.ts";
import type { StatusTracker } from "../../status/create-tracker.ts";
import { ApplyContext } from "../apply-context.ts";
import type { AppliedSkybox } from "../applied-skybox.ts";
import { bakeEnvironment } from "../baking/env-bake.ts";
import { backdropExport, modelOf, pickResolution } from "../exports/part-exports.ts";
import type { ApplyProgress, ApplyStage } from "../progress.ts";
import type { SceneClient } from "../scene-client.ts";
import { defaultSkyboxCache, type SkyboxCache } from "../cache/skybox-cache.ts";
import type { DetectedSun } from "../analysis/detect-sun.ts";

/** What a save's progress calls the `.env` bake (its other steps are named by the downloads). */
export const ENVIRONMENT_LABEL = "environment (.env)";

/** A step of collecting a save: an apply's export requests and downloads, and the `.env` bake. */
export interface SaveProgress extends Omit<ApplyProgress, "stage"> {
  stage: ApplyStage | "baking";
}

/** How to collect. */
export interface SavedContentsOptions {
  client: SceneClient;
  tracker: StatusTracker;
  /** @default the cache `applySkybox` used by default */
  cache?: SkyboxCache | false;
  /** The source `.hdr` too, in this HDRI mode and resolution (null: the smallest for a 256 cube); null for none. */
  hdr: { hdriMode: HdriModeKey; resolution: ResolutionName | null } | null;
  /** The export settings the skybox's backdrop was built with; null when it has none. */
  backdrop: { meshQuality: MeshQualityKey; depthScale: number } | null;
  /** Told each step; `detail` names the file it works on (the export, "panorama", ENVIRONMENT_LABEL). */
  onProgress?: (progress: SaveProgress) => void;
  signal?: AbortSignal;
}

/** The files and facts of a save. */
export interface SavedContents {
  model: 3 | 4;
  env: Uint8Array;
  panorama: Uint8Array;
  hdr: Uint8Array | null;
  backdrop: { format: "glb" | "depth-png"; bytes: Uint8Array } | null;
  /** The sun, with the size of the cube the baked environment holds it in when that cube was made from the sun's panorama. */
  sun: (DetectedSun & { disk: DetectedSun["disk"] & { cube?: number } }) | null;
}

/**
 * @param applied the skybox in the scene (its environment is baked: lighting or a blurred background must be on)
 * @param options client, tracker, cache, which files
 */
export async function collectSavedContents(applied: AppliedSkybox, options: SavedContentsOptions): Promise<SavedContents> {
  const environment = applied.environment;
  if (!environment) throw new Error("The skybox in the scene has no environment to save: turn Lighting on and apply it again");
  const record = applied.record;
  const model = modelOf(record);
  const cache = options.cache === false ? null : (options.cache ?? defaultSkyboxCache(applied.scene.getEngine()));
  const ctx = new ApplyContext({
    scene: applied.scene,
    record,
    model,
    client: options.client,
    tracker: options.tracker,
    cache,
    progress: options.onProgress ?? (() => undefined),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const backdrop = async (): Promise<SavedContents["backdrop"]> => {
    if (!applied.backdrop || !options.backdrop) return null;
    const choice = backdropExport(model, { ...options.backdrop, radius: null });
    return choice
      ? { format: "glb", bytes: (await ctx.exportBytes(choice, "backdrop")).bytes }
      : { format: "depth-png", bytes: await ctx.generationFile("depth") };
  };
  const hdr = options.hdr;
  const [env, panorama, backdropFile, hdrBytes] = await Promise.all([
    bakeEnvironment(environment, options.signal, (fraction) =>
      options.onProgress?.({ stage: "baking", detail: ENVIRONMENT_LABEL, fraction }),
    ),
    ctx.generationFile("panorama"),
    backdrop(),
    hdr
      ? ctx
          .exportBytes(
            {
              typeKey: "hdri-hdr",
              resolution: hdr.resolution ?? pickResolution("hdri-hdr", model, 1024),
              hdriMode: hdr.hdriMode,
              meshQuality: null,
              depthScale: null,
            },
            "lighting",
          )
          .then((r) => r.bytes)
      : null,
  ]);
  const sun = applied.sun;
  const savedSun = sun ? { ...sun.sun, disk: { ...sun.sun.disk, ...(sun.cubeSize !== null ? { cube: sun.cubeSize } : {}) } } : null;
  return { model, env, panorama, hdr: hdrBytes, backdrop: backdropFile, sun: savedSun };
}
