/**
 * `loadSkybox`'s code, loaded when it first runs (an app that never loads a saved skybox
 * bundles none of it on import): the folder opened and checked, every part built hidden,
 * then shown in one step.
 */
import type { Scene } from "@babylonjs/core/scene.js";
import type { SavedSkybox } from "../../api/saved/saved-skybox.ts";
import type { Generation } from "../../api/schemas/generation.ts";
import type { AppliedSkybox } from "../applied-skybox.ts";
import { resolveLoad, type LoadSkyboxOptions, type ResolvedLoad } from "./load-options.ts";
import type { ProgressSink } from "../progress.ts";
import { domeKey, groundKey } from "../cache/cache-keys.ts";
import { groundOf } from "../skybox-part.ts";
import { replacedLights } from "../sun-light/replaced-lights.ts";
import { environmentCacheOf } from "../cache/environment-cache.ts";
import { buildSavedBackdrop, buildSavedBackground, savedSun } from "./saved-parts.ts";
import { buildSavedEnvironment, type LoadContext } from "./saved-environment.ts";
import { SavedFolder } from "./saved-folder.ts";
import { runApply } from "../apply-run.ts";
import { showApplied, type BuiltParts } from "../show-applied.ts";
import { defaultSkyboxCache, type SkyboxCache } from "../cache/skybox-cache.ts";

/** `loadSkybox` (load-skybox.ts) once its code is loaded. */
export function loadSaved(scene: Scene, url: string, options: LoadSkyboxOptions): Promise<AppliedSkybox> {
  return runApply(options, async ({ progress, abort, progressObservable }) => {
    const cache = options.cache === false ? null : (options.cache ?? defaultSkyboxCache(scene.getEngine()));
    const { built, record, rotation } = await buildSaved(url, { scene, options, cache, progress, abort });
    return showApplied(built, { scene, record, rotation, cache, replace: options.replace, observable: progressObservable, progress });
  });
}

/** A saved skybox's parts, built hidden. */
export interface BuiltSaved {
  built: BuiltParts;
  record: Generation;
  rotation: number;
}

/** Where and how a saved folder is built. */
interface SavedBuild {
  scene: Scene;
  /** The caller's options. */
  options: LoadSkyboxOptions;
  /** The cache, or null. */
  cache: SkyboxCache | null;
  /** Where stages go. */
  progress: ProgressSink;
  /** Stops every part at the first failure. */
  abort: AbortController;
}

/**
 * Opens the folder and builds its parts.
 * @param url the manifest's URL
 * @param build the scene, the options, the cache, and the apply's progress and abort
 */
async function buildSaved(url: string, build: SavedBuild): Promise<BuiltSaved> {
  const { scene, options, cache, progress, abort } = build;
  const folder = await SavedFolder.open(url, progress, abort.signal);
  const parts = resolveLoad(folder.manifest, options);
  const ctx = loadContext(scene, folder.manifest, cache, progress, abort.signal);
  return { built: await buildAll(ctx, folder, parts, abort), record: recordOf(folder), rotation: parts.rotation };
}

/**
 * Builds every part, hidden. The files the other parts need are downloaded and checked
 * while the environment loads (it checks its own file before making a texture), and only
 * then are the other parts built. On any failure what was built is disposed and the error
 * rethrown.
 */
async function buildAll(ctx: LoadContext, folder: SavedFolder, parts: ResolvedLoad, abort: AbortController): Promise<BuiltParts> {
  const { files } = folder.manifest;
  // The dome kept in memory was built from this very file (its key names the file's SHA-256): no need to fetch it again.
  const keptKey = (parts.background?.ground ? groundKey : domeKey)(ctx.skyboxId);
  const domeKept = ctx.cache !== null && (environmentCacheOf(ctx.scene.getEngine())?.has(keptKey) ?? false);
  const backgroundFile = (parts.background?.blur === 0 && !domeKept) || (parts.backdrop && files.backdrop?.format === "depth-png");
  const needed = [backgroundFile ? files.background : null, parts.backdrop ? files.backdrop! : null];
  const checked = Promise.all(needed.map((f) => (f ? folder.bytes(f) : Promise.resolve(null))));
  const env = parts.environment ? buildSavedEnvironment(ctx, folder, parts.lighting) : null;
  for (const p of [checked, env]) p?.catch((error: unknown) => abort.abort(error));
  const [c, e] = await Promise.allSettled([checked, env]);
  const envPart = e.status === "fulfilled" ? e.value : null;
  const fail = (reason: unknown): never => {
    envPart?.lighting.dispose();
    throw reason;
  };
  if (c.status === "rejected") return fail(c.reason);
  if (e.status === "rejected") return fail(e.reason);
  const background = parts.background ? buildSavedBackground(ctx, folder, parts.background, envPart) : null;
  const backdrop = parts.backdrop ? buildSavedBackdrop(ctx, folder, parts.backdrop) : null;
  const [b, d] = await Promise.allSettled([background, backdrop]);
  const [backgroundPart, backdropPart] = [b.status === "fulfilled" ? b.value : null, d.status === "fulfilled" ? d.value : null];
  const failed = [b, d].find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed || abort.signal.aborted) {
    backgroundPart?.dispose();
    backdropPart?.dispose();
    return fail(failed ? failed.reason : abort.signal.reason);
  }
  const lighting = envPart?.lighting ?? null;
  const skyboxMeshes = [...(backgroundPart?.meshes ?? []), ...(backdropPart?.meshes ?? [])];
  const neighbours = { lighting, backdropMeshes: backdropPart?.meshes ?? [], skyboxMeshes, ground: groundOf(backgroundPart) };
  const sun = parts.sun ? await savedSun(ctx, folder.manifest, parts.sun, neighbours, parts.lighting?.size ?? null) : null;
  const replaced = replacedLights(parts.replaces);
  return {
    parts: { lighting, background: backgroundPart, backdrop: backdropPart, sun, replaced },
    bake: envPart?.bakeKey ? envPart : null,
  };
}

/** The load's context: unique names, and cache keys of its own (the background's and GLB's content name them). */
function loadContext(
  scene: Scene,
  manifest: SavedSkybox,
  cache: SkyboxCache | null,
  progress: ProgressSink,
  signal: AbortSignal,
): LoadContext {
  const skyboxId = `saved-${manifest.files.background.sha256.slice(0, 16)}`;
  return { scene, cache, progress, signal, skyboxId, name: (part) => `skybox-${skyboxId}-${part}-${scene.getUniqueId()}` };
}

/** The generation record the handle shows (`applied.record`), as the manifest describes it, its URLs the folder's files. */
function recordOf(folder: SavedFolder): Generation {
  const { skybox, files } = folder.manifest;
  const at = (path: string) => new URL(path, folder.url).href;
  return {
    id: skybox.id,
    obfuscated_id: skybox.obfuscated_id,
    status: "complete",
    title: skybox.title,
    prompt: skybox.prompt,
    seed: skybox.seed,
    skybox_style_id: skybox.style?.id ?? null,
    skybox_style_name: skybox.style?.name ?? null,
    model: `Model ${skybox.model}`,
    file_url: at(files.background.path),
    thumb_url: "",
    depth_map_url: files.backdrop?.format === "depth-png" ? at(files.backdrop.path) : "",
  };
}
