/**
 * GPU bytes of a texture, estimated from what Babylon knows of it: width x height x faces x
 * mips x bytes per texel. Drivers pad (RGB as RGBA, rows, mip tails); the estimate counts
 * RGB as four channels and ignores the rest. It bounds the environment cache, it is no bill.
 */
import { Constants } from "@babylonjs/core/Engines/constants.js";
import type { InternalTexture } from "@babylonjs/core/Materials/Textures/internalTexture.js";

const CHANNELS: Record<number, number> = {
  [Constants.TEXTUREFORMAT_ALPHA]: 1,
  [Constants.TEXTUREFORMAT_LUMINANCE]: 1,
  [Constants.TEXTUREFORMAT_LUMINANCE_ALPHA]: 2,
  [Constants.TEXTUREFORMAT_R]: 1,
  [Constants.TEXTUREFORMAT_RG]: 2,
};

const CHANNEL_BYTES: Record<number, number> = {
  [Constants.TEXTURETYPE_UNSIGNED_BYTE]: 1,
  [Constants.TEXTURETYPE_BYTE]: 1,
  [Constants.TEXTURETYPE_HALF_FLOAT]: 2,
  [Constants.TEXTURETYPE_FLOAT]: 4,
};

/**
 * @param texture the GPU texture
 * @param mips whether it has a full mip chain
 * @returns estimated bytes, with the irradiance cube some environments carry
 */
export function textureBytes(texture: InternalTexture, mips: boolean): number {
  // Packed types (5-6-5, 10-10-10-2 ...) are four bytes a texel whatever the format.
  const perChannel = CHANNEL_BYTES[texture.type];
  const texel = perChannel === undefined ? 4 : (CHANNELS[texture.format] ?? 4) * perChannel;
  const faces = texture.isCube ? 6 : Math.max(1, texture.depth);
  let texels = 0;
  for (let w = texture.width, h = texture.height; ; w = Math.max(1, w >> 1), h = Math.max(1, h >> 1)) {
    texels += w * h;
    if (!mips || (w === 1 && h === 1)) break;
  }
  const irradiance = texture._irradianceTexture?.getInternalTexture();
  return texels * faces * texel + (irradiance ? textureBytes(irradiance, true) : 0);
}
