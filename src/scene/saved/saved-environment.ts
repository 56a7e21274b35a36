/**
 * The environment of a saved skybox: its `.env` loaded as it was prefiltered when saved (no
 * prefiltering here), or its `.hdr` prefiltered once, then kept (in memory, and baked into
 * the cache database after the first frame) under the file's SHA-256, like `applySkybox`'s.
 */
import { CubeTexture } from "@babylonjs/core/Materials/Textures/cubeTexture.js";
import type { Scene } from "@babylonjs/core/scene.js";
import { cachedEnvironment, prefilteredEnvironment, type BuiltEnvironment } from "../build-parts.ts";
import { savedEnvKey } from "../cache/cache-keys.ts";
import type { EnvironmentTexture } from "../environment/environment-loader.ts";
import { keepEnvironment, type KeepContext } from "../cache/kept-parts.ts";
import { SkyboxLighting } from "../environment/lighting.ts";
import type { ResolvedLoad } from "./load-options.ts";
import { harmonicsReady } from "../environment/prefilter.ts";
import type { SavedFolder } from "./saved-folder.ts";

/** What building a saved skybox's parts needs. */
export interface LoadContext extends KeepContext {
  readonly signal?: AbortSignal | undefined;
  name(part: string): string;
}

/** Lighting settings of an environment built only for a blurred background. */
const BACKGROUND_ONLY = { intensity: 1, size: 256, quality: 64 };

/**
 * Builds the saved environment.
 * @param ctx the load
 * @param folder the saved folder
 * @param lighting the lighting settings, or null when only a blurred background uses it
 * @returns the lighting part, and the cache key to bake a prefiltered `.hdr` under (null: nothing to bake)
 */
export async function buildSavedEnvironment(
  ctx: LoadContext,
  folder: SavedFolder,
  lighting: ResolvedLoad["lighting"],
): Promise<BuiltEnvironment> {
  const { scene } = ctx;
  const entry = folder.manifest.files.environment;
  const options = lighting ?? BACKGROUND_ONLY;
  const size = Math.min(options.size, scene.getEngine().getCaps().maxCubemapTextureSize);
  const key = savedEnvKey(entry.sha256, entry.format, size, options.quality);
  const name = ctx.name("environment");
  const active = lighting !== null;
  const cached = await cachedEnvironment(ctx, key, name, active, options.intensity);
  if (cached) return { lighting: cached.lighting, bakeKey: entry.format === "hdr" ? cached.bakeKey : null };
  const bytes = await folder.bytes(entry);
  ctx.signal?.throwIfAborted();
  if (entry.format === "env") {
    ctx.progress({ stage: "prefiltering", detail: `${entry.path}: prefiltered when saved, nothing to do`, fraction: 1 });
    const texture = await envCube(scene, bytes, name);
    keepEnvironment(ctx, key, texture, false);
    return { lighting: new SkyboxLighting({ scene, texture, active, intensity: options.intensity, fromCache: false }), bakeKey: null };
  }
  const clamped = size < options.size ? ` (GPU limit; ${options.size} asked)` : "";
  ctx.progress({
    stage: "prefiltering",
    detail: `${entry.path} to a ${size} cube${clamped}, ${options.quality} samples: once, then kept in the cache`,
  });
  return prefilteredEnvironment(ctx, {
    key,
    format: "hdr",
    bytes,
    size,
    name,
    quality: options.quality,
    active,
    intensity: options.intensity,
  });
}

/** A `.env` file's prefiltered cube (CubeTexture's `.env` loader: RGBD mips and harmonics as baked). */
async function envCube(scene: Scene, bytes: Uint8Array, name: string): Promise<EnvironmentTexture> {
  const texture = await new Promise<CubeTexture>((resolve, reject) => {
    const delayed = scene.useDelayedTextureLoading;
    scene.useDelayedTextureLoading = false;
    try {
      const t: CubeTexture = new CubeTexture(name, scene, {
        buffer: bytes,
        forcedExtension: ".env",
        prefiltered: true,
        createPolynomials: true,
        // Deferred: a buffer may load (or fail) before the constructor returns.
        onLoad: () => queueMicrotask(() => resolve(t)),
        onError: (message, exception) =>
          queueMicrotask(() => {
            t.dispose();
            reject(new Error(`Could not decode the environment ${name}: ${message ?? exception ?? "unknown error"}`));
          }),
      });
      t.name = name;
    } finally {
      scene.useDelayedTextureLoading = delayed;
    }
  });
  await harmonicsReady(texture);
  return texture;
}
