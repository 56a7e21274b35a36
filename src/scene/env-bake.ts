/**
 * The prefiltered environment baked to Babylon's `.env` (RGBD-encoded PNG mips plus the
 * irradiance harmonics), so applying the same skybox again skips download and prefiltering.
 */
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import { CreateEnvTextureAsync } from "@babylonjs/core/Misc/environmentTextureTools.js";
import { harmonicsReady } from "./prefilter.ts";

/**
 * The `.env` bytes of a prefiltered cube texture. It reads every mip of every face back from
 * the GPU: run it after the skybox is shown, not on the way to the first frame.
 * @param texture a prefiltered, ready cube texture with harmonics
 * @returns the .env file
 */
export async function bakeEnvironment(texture: BaseTexture): Promise<Uint8Array> {
  await harmonicsReady(texture);
  if (!texture.sphericalPolynomial) throw new Error("The environment has no irradiance harmonics to bake");
  return new Uint8Array(await CreateEnvTextureAsync(texture, { imageType: "image/png" }));
}
