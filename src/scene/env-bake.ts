/**
 * The prefiltered environment baked to Babylon's `.env` (RGBD-encoded PNG mips plus the
 * irradiance harmonics): a file to ship or load with `CubeTexture`. The cache does not use it
 * (texel-bake.ts is ten times cheaper to bake and needs no decoding to load).
 */
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import { CreateEnvTextureAsync } from "@babylonjs/core/Misc/environmentTextureTools.js";
import type { Scene } from "@babylonjs/core/scene.js";
import { harmonicsReady } from "./prefilter.ts";
import { ownHarmonics } from "./sun/own-harmonics.ts";

/**
 * The `.env` bytes of a prefiltered cube texture. It reads every mip of every face back from
 * the GPU: run it after the skybox is shown, not on the way to the first frame.
 * @param texture a prefiltered, ready cube texture with harmonics
 * @param signal stops the bake at the next face read back (it rejects with the reason)
 * @returns the .env file
 */
export async function bakeEnvironment(texture: BaseTexture, signal?: AbortSignal): Promise<Uint8Array> {
  await harmonicsReady(texture);
  signal?.throwIfAborted();
  if (!texture.sphericalPolynomial) throw new Error("The environment has no irradiance harmonics to bake");
  const engine = texture.getInternalTexture()!.getEngine();
  // Babylon bakes in a scene of its own, made before its first await and disposed only at the end.
  let hosting: Scene | null = null;
  const observer = engine.onNewSceneAddedObservable.add((scene) => void (hosting ??= scene));
  let baking: Promise<ArrayBuffer>;
  try {
    baking = CreateEnvTextureAsync(bakeView(texture, signal), { imageType: "image/png" });
  } finally {
    engine.onNewSceneAddedObservable.remove(observer);
  }
  try {
    return new Uint8Array(await baking);
  } catch (error) {
    const left = hosting as Scene | null;
    if (left && !left.isDisposed) left.dispose();
    throw error;
  }
}

/**
 * The texture as the bake sees it: its own harmonics, not those a sun light's balance makes
 * it answer (the file would otherwise hold the sky without its sun, and a skybox loaded from
 * it would take the sun out twice); and each read-back first checks `signal`, so a
 * cancelled bake stops between faces.
 */
function bakeView(texture: BaseTexture, signal?: AbortSignal): BaseTexture {
  return new Proxy(texture, {
    get(target, property) {
      if (property === "sphericalPolynomial") return ownHarmonics(target);
      const value: unknown = Reflect.get(target, property, target);
      if (property !== "readPixels" || typeof value !== "function" || !signal) return value;
      return (...args: unknown[]) => {
        signal.throwIfAborted();
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
