/**
 * Parts taken from the engine's environment cache (environment-cache.ts), and the GPU
 * textures of freshly built parts put into it: the prefiltered environment and the
 * background dome's panorama, the backdrop GLB's textures. Only applies with a cache do
 * either (`cache: false` keeps nothing).
 * Each texture object of a part built on an entry trims the cache once disposed: the entry
 * it showed may be the one to evict now.
 */
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import type { ApplyContext } from "../apply-context.ts";
import type { SkyboxBackdrop } from "../backdrop/backdrop.ts";
import { createKeptDomeBackground, type DomeBackground } from "../background/background.ts";
import { domeKey, glbTextureKey, groundKey } from "./cache-keys.ts";
import type { GroundedBackground } from "../background/grounded-background.ts";
import type { GroundShape } from "../background/flat-ground.ts";
import type { ExportChoice } from "../exports/part-exports.ts";
import { getEnvironmentCache, type EnvironmentCache } from "./environment-cache.ts";
import { EnvironmentView } from "../environment/environment-view.ts";
import { SkyboxLighting } from "../environment/lighting.ts";

/** What keeping parts needs of an apply (or of a `loadSkybox`): the scene, its cache, where it reports, the id its keys name. */
export type KeepContext = Pick<ApplyContext, "scene" | "cache" | "progress" | "skyboxId">;

/** The environment cache of the apply's engine, or null for an apply without a cache. */
function memoryOf(ctx: KeepContext): EnvironmentCache | null {
  return ctx.cache ? getEnvironmentCache(ctx.scene.getEngine()) : null;
}

/** Trims `memory` once `texture` has let go of its GPU texture (just after its dispose observers run). */
function trimOnDispose(memory: EnvironmentCache, texture: BaseTexture): void {
  texture.onDisposeObservable.addOnce(() => queueMicrotask(() => memory.trim()));
}

/**
 * The environment of `key` as the cache keeps it, as a lighting part; null on a miss.
 * @returns the lighting, and whether it still needs a bake for the apply's cache database
 */
export function keptEnvironment(
  ctx: KeepContext,
  key: string,
  name: string,
  active: boolean,
  intensity: number,
): { lighting: SkyboxLighting; needsBake: boolean } | null {
  const memory = memoryOf(ctx);
  const kept = memory?.get(key);
  if (!memory || !kept) return null;
  ctx.progress({ stage: "prefiltering", detail: "environment kept in memory", fraction: 1 });
  const view = new EnvironmentView(ctx.scene, kept, name);
  trimOnDispose(memory, view);
  const lighting = new SkyboxLighting({ scene: ctx.scene, texture: view, active, intensity, fromCache: true });
  return { lighting, needsBake: !memory.isStored(key, ctx.cache!.databaseName) };
}

/**
 * Keeps a prefiltered environment for the next apply.
 * @param stored whether it came from the apply's cache database (no bake needed)
 */
export function keepEnvironment(ctx: KeepContext, key: string, texture: BaseTexture, stored: boolean): void {
  const memory = memoryOf(ctx);
  const internal = texture.getInternalTexture();
  if (!memory || !internal) return;
  memory.add(key, internal, true);
  if (stored) memory.markStored(key, ctx.cache!.databaseName);
  trimOnDispose(memory, texture);
}

/** The background dome on the panorama texture the cache keeps; null on a miss or if it cannot be shared. */
export async function keptDome(ctx: KeepContext, name: string): Promise<DomeBackground | null> {
  const memory = memoryOf(ctx);
  const kept = memory?.get(domeKey(ctx.skyboxId));
  if (!memory || !kept) return null;
  const dome = await createKeptDomeBackground(ctx.scene, kept, name).catch(() => null);
  if (dome) trimOnDispose(memory, dome.dome.texture);
  return dome;
}

/** Keeps the panorama texture of a dome built from bytes for the next apply. */
export function keepDome(ctx: KeepContext, dome: DomeBackground): void {
  const memory = memoryOf(ctx);
  const internal = dome.dome.texture.getInternalTexture();
  if (!memory || !internal) return;
  memory.add(domeKey(ctx.skyboxId), internal, internal.generateMipMaps);
  trimOnDispose(memory, dome.dome.texture);
}

/** The grounded background on the panorama texture the cache keeps; null on a miss or if it cannot be shared. */
export async function keptGround(ctx: KeepContext, settings: GroundShape, name: string): Promise<GroundedBackground | null> {
  const memory = memoryOf(ctx);
  const kept = memory?.get(groundKey(ctx.skyboxId));
  if (!memory || !kept) return null;
  // Loaded when a ground is asked for: most skyboxes show a dome, and the core entry stays small.
  const { createKeptGroundedBackground } = await import("../background/grounded-background.ts");
  const ground = await createKeptGroundedBackground(ctx.scene, kept, settings, name).catch(() => null);
  if (ground) trimOnDispose(memory, ground.texture);
  return ground;
}

/** Keeps the panorama texture of a grounded background built from bytes for the next apply. */
export function keepGround(ctx: KeepContext, ground: GroundedBackground): void {
  const memory = memoryOf(ctx);
  const internal = ground.texture.getInternalTexture();
  if (!memory || !internal) return;
  memory.add(groundKey(ctx.skyboxId), internal, internal.generateMipMaps);
  trimOnDispose(memory, ground.texture);
}

/**
 * The file name a GLB export loads under. With a cache it names the export's content (skybox,
 * mesh quality, depth scale), so its textures' URLs are the same at every load and the
 * engine's texture cache hands back the ones kept (`keepBackdrop`): no image decoded again.
 * Without one, the unique name of the part: nothing shared.
 */
export function glbFileName(ctx: KeepContext, choice: ExportChoice, name: string): string {
  return memoryOf(ctx) ? `skybox-${ctx.skyboxId}-glb-${choice.meshQuality ?? "-"}-${choice.depthScale ?? "-"}` : name;
}

/** Keeps the GPU textures of a GLB backdrop for the next load of the same file. */
export function keepBackdrop(ctx: KeepContext, backdrop: SkyboxBackdrop): void {
  const memory = memoryOf(ctx);
  if (!memory) return;
  for (const texture of backdrop.textures) {
    const internal = texture.getInternalTexture();
    if (!internal?.url) continue;
    memory.add(glbTextureKey(internal.url), internal, internal.generateMipMaps);
    trimOnDispose(memory, texture);
  }
}
