/**
 * `applySkybox`: a generated skybox as the scene's image-based lighting, background and
 * backdrop, in one call.
 */
import type { Scene } from "@babylonjs/core/scene.js";
import { createSceneClient } from "./scene-client.ts";
import type { Generation } from "../api/schemas/generation.ts";
import { createStatusTracker } from "../status/create-tracker.ts";
import { ApplyContext } from "./apply-context.ts";
import type { AppliedSkybox } from "./applied-skybox.ts";
import { buildBackdrop, buildBackground, buildEnvironment } from "./build-parts.ts";
import { modelOf, sunExport } from "./exports/part-exports.ts";
import { DecodedHdr } from "./environment/decoded-hdr.ts";
import { resolveParts, type ApplySkyboxOptions, type ResolvedLighting } from "./apply-options.ts";
import { runApply } from "./apply-run.ts";
import { showApplied, type BuiltParts } from "./show-applied.ts";
import { groundOf } from "./skybox-part.ts";
import { defaultSkyboxCache } from "./cache/skybox-cache.ts";
import { completeRecord } from "./skybox-record.ts";

/** Lighting settings of an environment built only for a blurred background. */
const BACKGROUND_ONLY_LIGHTING: ResolvedLighting = {
  source: "hdri-hdr",
  hdriMode: "realism",
  resolution: null,
  size: 256,
  quality: 64,
  intensity: 1,
};

/**
 * Applies a generated skybox to a scene: image-based lighting (`scene.environmentTexture`),
 * a background and a depth-displaced backdrop, each optional. Waits for the skybox when it
 * is not complete, requests and waits for the exports it needs, and caches the prefiltered
 * environment and the downloads so the next apply of the same skybox is fast.
 *
 * Everything is built hidden and shown in one step once ready; `replace` is disposed in that
 * same step. On failure nothing stays in the scene and `replace` is left as it was.
 *
 * @param scene the scene (its active camera places the backdrop)
 * @param skybox a generation record, numeric id or obfuscated id
 * @param options parts, sizes, cache, client (see `ApplySkyboxOptions`)
 * @returns the handle of the applied skybox
 * @example
 * const sky = await applySkybox(scene, generation.id, { lighting: { size: 256, quality: 64 }, background: { blur: 0 } });
 * sky.setRotation(Math.PI / 4);
 * const next = await applySkybox(scene, other.id, { replace: sky });
 */
export async function applySkybox(
  scene: Scene,
  skybox: number | string | Generation,
  options: ApplySkyboxOptions = {},
): Promise<AppliedSkybox> {
  const parts = resolveParts(options);
  const client = options.client ?? createSceneClient({ baseUrl: "/skybox" });
  const ownTracker = options.tracker ? null : createStatusTracker({ client, pollIntervalMs: 500 });
  const tracker = options.tracker ?? ownTracker!;
  const cache = options.cache === false ? null : (options.cache ?? defaultSkyboxCache(scene.getEngine()));
  try {
    return await runApply(options, async ({ progress, abort, progressObservable }) => {
      const record = await completeRecord(skybox, tracker, progress, abort.signal);
      const ctx = new ApplyContext({
        scene,
        record,
        model: modelOf(record, options.model),
        client,
        tracker,
        cache,
        progress,
        signal: abort.signal,
      });
      // From here to the return nothing awaits: an abort cannot land between the parts being
      // built (buildAll checks it last) and being shown.
      const built = await buildAll(ctx, parts, abort);
      return showApplied(built, {
        scene,
        record,
        rotation: parts.rotation,
        cache,
        replace: options.replace,
        observable: progressObservable,
        progress,
        writes: ctx.downloads.writes,
      });
    });
  } finally {
    ownTracker?.dispose();
  }
}

/** Builds the parts side by side; on any failure disposes those that were built, then rethrows. */
async function buildAll(ctx: ApplyContext, parts: ReturnType<typeof resolveParts>, abort: AbortController): Promise<BuiltParts> {
  const needsEnv = parts.lighting !== null || (parts.background !== null && parts.background.blur > 0);
  const sunOptions = parts.sun;
  // Found in the lighting's own export, the sun's worker decodes the file for both.
  const decoded = sunOptions && sunExport(ctx.model, parts.lighting, sunOptions.resolution).lightingsOwn ? new DecodedHdr() : null;
  const env = needsEnv ? buildEnvironment(ctx, parts.lighting ?? BACKGROUND_ONLY_LIGHTING, parts.lighting !== null, decoded) : null;
  const background = parts.background ? buildBackground(ctx, parts.background, env) : null;
  const backdrop = parts.backdrop ? buildBackdrop(ctx, parts.backdrop) : null;
  const sun = sunOptions
    ? import("./sun-light/build-sun.ts")
        .then(async (m) => ({
          make: await m.prepareSun(ctx, sunOptions, parts.lighting, decoded),
          replaced: m.replacedLights(sunOptions.replaces),
        }))
        .finally(() => decoded?.give(null))
    : null;
  for (const p of [env, background, backdrop, sun]) p?.catch((error: unknown) => abort.abort(error));
  const [e, b, d, s] = await Promise.allSettled([env, background, backdrop, sun]);
  const value = <T>(r: PromiseSettledResult<T | null>): T | null => (r.status === "fulfilled" ? r.value : null);
  const [envPart, backgroundPart, backdropPart] = [value(e), value(b), value(d)];
  const failed = [e, b, d, s].find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed || abort.signal.aborted) {
    backgroundPart?.dispose();
    backdropPart?.dispose();
    envPart?.lighting.dispose();
    throw failed ? failed.reason : abort.signal.reason;
  }
  const built = { lighting: envPart?.lighting ?? null, background: backgroundPart, backdrop: backdropPart };
  const skyboxMeshes = [...(backgroundPart?.meshes ?? []), ...(backdropPart?.meshes ?? [])];
  const prepared = value(s);
  const sunPart =
    prepared?.make?.({
      lighting: built.lighting,
      backdropMeshes: backdropPart?.meshes ?? [],
      skyboxMeshes,
      ground: groundOf(backgroundPart),
    }) ?? null;
  return { parts: { ...built, sun: sunPart, replaced: prepared?.replaced ?? null }, bake: envPart?.bakeKey ? envPart : null };
}
