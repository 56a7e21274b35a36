/**
 * `bakeEnvironment` as the package exports it: its code (the `.env` writer and its PNG compressor, fflate) loads
 * on the first call, so an app that never bakes a `.env` does not bundle it on import.
 */
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";

/**
 * The `.env` bytes of a prefiltered cube texture (see env-bake.ts). It reads every mip of
 * every face back from the GPU, a face per task: run it after the skybox is shown, not on
 * the way to the first frame.
 * @param texture a prefiltered, ready cube texture with harmonics
 * @param signal stops the bake before the next face (it rejects with the reason)
 * @param onProgress told the share done (0..1)
 * @returns the .env file
 * @example
 * const bytes = await bakeEnvironment(scene.environmentTexture!);
 */
export async function bakeEnvironment(
  texture: BaseTexture,
  signal?: AbortSignal,
  onProgress?: (fraction: number) => void,
): Promise<Uint8Array> {
  return (await import("./env-bake.ts")).bakeEnvironment(texture, signal, onProgress);
}
