/**
 * Builds each part of a skybox from its sources, disabled: the environment (kept in memory,
 * else baked in the cache, else downloaded, decoded and prefiltered), the background and the
 * backdrop.
 */
import { backgroundBakes } from "./background/background-bakes.ts";
import type { SkyboxBackdrop } from "./backdrop/backdrop.ts";
import { createBlurredBackground, createDomeBackground } from "./background/background.ts";
import { envKey } from "./cache/cache-keys.ts";
import { loadEnvironment, type EnvironmentFormat } from "./environment/environment-loader.ts";
import type { DecodedHdr } from "./environment/decoded-hdr.ts";
import type { HdrPixels } from "./analysis/hdr-pixels.ts";
import { EnvironmentView } from "./environment/environment-view.ts";
import {
  glbFileName,
  keepBackdrop,
  keepDome,
  keepEnvironment,
  keepGround,
  keptDome,
  keptEnvironment,
  keptGround,
  type KeepContext,
} from "./cache/kept-parts.ts";
import { backdropExport, effectiveSource, lightingExport } from "./exports/part-exports.ts";
import { SkyboxLighting } from "./environment/lighting.ts";
import type { LightingSource, ResolvedBackdrop, ResolvedBackground, ResolvedLighting } from "./apply-options.ts";
import { prefilterEnvironment } from "./environment/prefilter.ts";
import type { ApplyContext } from "./apply-context.ts";
import type { SkyboxPart } from "./skybox-part.ts";

const FORMATS: Record<LightingSource, EnvironmentFormat> = {
  "hdri-hdr": "hdr",
  "hdri-exr": "exr",
  "cube-map": "cube-zip",
  equirect: "equirect",
};

/** A built environment, and the cache key it is baked under when the cache may not hold it yet (to bake, or to join the bake under way). */
export interface BuiltEnvironment {
  lighting: SkyboxLighting;
  bakeKey: string | null;
}

/**
 * The environment cube, prefiltered: kept in memory by the engine's environment cache, else
 * shared with the bake of the same environment under way (background-bakes.ts), else loaded
 * from the cache's baked texels, else built from its export. What is loaded or built is kept.
 * @param ctx the apply
 * @param options lighting options
 * @param active whether it lights the scene (false: only a blurred background uses it)
 * @param decoded the `.hdr` export's pixels when the sun's worker decodes the same file
 */
export async function buildEnvironment(
  ctx: ApplyContext,
  options: ResolvedLighting,
  active: boolean,
  decoded: DecodedHdr | null = null,
): Promise<BuiltEnvironment> {
  const { scene } = ctx;
  const engine = scene.getEngine();
  const size = Math.min(options.size, engine.getCaps().maxCubemapTextureSize);
  const source = effectiveSource(ctx.model, options);
  const choice = lightingExport(ctx.model, options);
  const key = envKey(ctx.skyboxId, source, choice, { ...options, size });
  const name = ctx.name("environment");
  const cached = await cachedEnvironment(ctx, key, name, active, options.intensity);
  if (cached) return cached;
  const bytes = choice ? (await ctx.exportBytes(choice, "lighting")).bytes : await ctx.generationFile("panorama");
  ctx.signal?.throwIfAborted();
  const clamped = size < options.size ? ` (GPU limit; ${options.size} asked)` : "";
  ctx.progress({ stage: "prefiltering", detail: `${source} to a ${size} cube${clamped}, ${options.quality} samples` });
  return prefilteredEnvironment(ctx, {
    key,
    format: FORMATS[source],
    bytes,
    size,
    name,
    quality: options.quality,
    active,
    intensity: options.intensity,
    ...(decoded ? { decoded: decoded.pixels } : {}),
  });
}

/** What `prefilteredEnvironment` loads and how the result lights the scene. */
export interface PrefilterJob {
  /** The cache key it is kept and baked under. */
  key: string;
  format: EnvironmentFormat;
  bytes: Uint8Array;
  /** Cube face size, within the GPU's limit. */
  size: number;
  name: string;
  quality: number;
  active: boolean;
  intensity: number;
  /** An `.hdr` file's pixels decoded elsewhere (null when none come). */
  decoded?: Promise<HdrPixels | null>;
}

/**
 * Loads an environment's file into a cube, prefilters it and keeps it under its key; the
 * cube is disposed when the prefilter fails or the apply is aborted meanwhile.
 * @param ctx the apply (or load)
 * @param job the file, the cube and how it lights
 */
export async function prefilteredEnvironment(
  ctx: KeepContext & { readonly signal?: AbortSignal | undefined },
  job: PrefilterJob,
): Promise<BuiltEnvironment> {
  const { scene } = ctx;
  const loaded = await loadEnvironment(scene, job.format, job.bytes, job.size, job.name, job.decoded);
  try {
    ctx.signal?.throwIfAborted();
    await prefilterEnvironment(scene.getEngine(), loaded.texture, job.quality, loaded.polynomial);
  } catch (error) {
    loaded.texture.dispose();
    throw error;
  }
  keepEnvironment(ctx, job.key, loaded.texture, false);
  return {
    lighting: new SkyboxLighting({ scene, texture: loaded.texture, active: job.active, intensity: job.intensity, fromCache: false }),
    bakeKey: ctx.cache ? job.key : null,
  };
}

/**
 * A prefiltered environment the caches hold under `key`: kept in memory, shared with its bake
 * under way, or baked texels in the cache database; null when none does.
 * @param ctx the apply (or load)
 * @param key the environment's cache key
 * @param name unique texture name
 * @param active whether it lights the scene
 * @param intensity scene.environmentIntensity while it does
 */
export async function cachedEnvironment(
  ctx: KeepContext,
  key: string,
  name: string,
  active: boolean,
  intensity: number,
): Promise<BuiltEnvironment | null> {
  const { scene } = ctx;
  const kept = keptEnvironment(ctx, key, name, active, intensity);
  if (kept) return { lighting: kept.lighting, bakeKey: kept.needsBake ? key : null };
  const baking = ctx.cache ? backgroundBakes.running(scene, key, ctx.cache) : null;
  if (baking) {
    ctx.progress({ stage: "prefiltering", detail: "environment shared with its bake under way", fraction: 1 });
    return {
      lighting: new SkyboxLighting({ scene, texture: new EnvironmentView(scene, baking, name), active, intensity, fromCache: false }),
      bakeKey: key,
    };
  }
  const baked = ctx.cache ? await ctx.cache.get(key).catch(() => null) : null;
  if (!baked) return null;
  try {
    const env = await loadEnvironment(scene, "texels", baked, 0, name);
    keepEnvironment(ctx, key, env.texture, true);
    ctx.progress({ stage: "prefiltering", detail: "environment from cache", fraction: 1 });
    return { lighting: new SkyboxLighting({ scene, texture: env.texture, active, intensity, fromCache: true }), bakeKey: null };
  } catch {
    // A damaged entry: forget it and build the environment again.
    await ctx.cache?.delete(key).catch(() => undefined);
    return null;
  }
}

/**
 * The background: the panorama on a dome or grounded, or the environment blurred when `blur` > 0.
 * @param ctx the apply
 * @param options blur (0..1) and ground
 * @param environment the environment, needed when blur > 0
 */
export async function buildBackground(
  ctx: ApplyContext,
  options: ResolvedBackground,
  environment: Promise<BuiltEnvironment> | null,
): Promise<SkyboxPart> {
  const { blur, ground } = options;
  if (ground) {
    const kept = await keptGround(ctx, ground, ctx.name("background"));
    if (kept) return kept;
    const panorama = await ctx.generationFile("panorama");
    ctx.signal?.throwIfAborted();
    const part = await (
      await import("./background/grounded-background.ts")
    ).createGroundedBackground(ctx.scene, panorama, ground, ctx.name("background"));
    keepGround(ctx, part);
    return part;
  }
  if (blur > 0) {
    if (!environment) throw new Error("A blurred background needs the environment");
    const env = await environment;
    return createBlurredBackground(ctx.scene, env.lighting.texture, blur, ctx.name("background"));
  }
  const kept = await keptDome(ctx, ctx.name("background"));
  if (kept) return kept;
  const panorama = await ctx.generationFile("panorama");
  ctx.signal?.throwIfAborted();
  const dome = await createDomeBackground(ctx.scene, panorama, ctx.name("background"));
  keepDome(ctx, dome);
  return dome;
}

/**
 * The backdrop: the GLB export for Model 3, built from the depth map for Model 4. Each
 * builder, with the Babylon loader or material it needs, is loaded while its files download
 * (a chunk of its own for bundlers that split), so an app without a backdrop loads neither.
 * @param ctx the apply
 * @param options backdrop options
 */
export async function buildBackdrop(ctx: ApplyContext, options: ResolvedBackdrop): Promise<SkyboxBackdrop> {
  const choice = backdropExport(ctx.model, options);
  const name = ctx.name("backdrop");
  if (choice) {
    const [{ bytes }, { loadGlbBackdrop }] = await Promise.all([ctx.exportBytes(choice, "backdrop"), import("./backdrop/backdrop-glb.ts")]);
    ctx.signal?.throwIfAborted();
    ctx.progress({ stage: "building-backdrop", detail: "GLB export" });
    const backdrop = await loadGlbBackdrop(ctx.scene, bytes, name, options.radius, glbFileName(ctx, choice, name));
    keepBackdrop(ctx, backdrop);
    return backdrop;
  }
  const [panorama, depthPng, { buildDepthBackdrop }] = await Promise.all([
    ctx.generationFile("panorama"),
    ctx.generationFile("depth"),
    import("./backdrop/backdrop-from-depth.ts"),
  ]);
  ctx.signal?.throwIfAborted();
  ctx.progress({ stage: "building-backdrop", detail: "from the depth map" });
  const input = { panorama, depthPng, meshQuality: options.meshQuality, depthScale: options.depthScale, radius: options.radius };
  return buildDepthBackdrop(ctx.scene, input, name, ctx.signal ?? undefined);
}
