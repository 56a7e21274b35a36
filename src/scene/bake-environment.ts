/**
 * `bakeEnvironment` as the package exports it: its code (and Babylon's `.env` writer) loads
 * on the first call, so an app that never bakes a `.env` does not bundle it on import.
 */
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";

/**
 * The `.env` bytes of a prefiltered cube texture (see env-bake.ts). It reads every mip of
 * every face back from the GPU: run it after the skybox is shown, not on the way to the first frame.
 * @param texture a prefiltered, ready cube texture with harmonics
 * @param signal stops the bake at the next face read back (it rejects with the reason)
 * @returns the .env file
 * @example
 * const bytes = await bakeEnvironment(scene.environmentTexture!);
 */
export async function bakeEnvironment(texture: BaseTexture, signal?: AbortSignal): Promise<Uint8Array> {
  return (await import("./env-bake.ts")).bakeEnvironment(texture, signal);
}
