/**
 * The prefiltered environment baked for the cache as its own texels (baked-texels.ts): each
 * face of each mip read back from the GPU and stored as half floats, nothing encoded. Babylon's
 * `.env` bake (env-bake.ts) also RGBD-encodes every face on the GPU, reads it back again and
 * compresses it to PNG on the main thread; this one costs the read-backs alone. It waits for
 * idle time and reads a face per idle slice at most, so it never competes with the user's next
 * action, and it stops between faces once its signal aborts.
 */
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import type { SphericalPolynomial } from "@babylonjs/core/Maths/sphericalPolynomial.js";
import { ToHalfFloat } from "@babylonjs/core/Misc/halfFloat.js";
import { encodeBakedTexels, faceLength, mipCount } from "./baked-texels.ts";
import { idleSlice, type IdleSlice } from "./idle-time.ts";
import { harmonicsReady } from "./prefilter.ts";
import { ownHarmonics } from "./sun/own-harmonics.ts";

/** Waits for a slice of time to work in (tests give their own). */
export type WaitForSlice = (signal: AbortSignal) => Promise<IdleSlice>;

/**
 * The cache bytes of a prefiltered, ready cube texture with harmonics.
 * @param texture the environment
 * @param signal stops the bake before the next face (it rejects with the reason)
 * @param wait when to work
 * @param onProgress told the share of faces read (0..1) after each
 * @returns the baked texels
 */
export async function bakeTexels(texture: BaseTexture, signal: AbortSignal, wait: WaitForSlice = idleSlice, onProgress?: (fraction: number) => void): Promise<Uint8Array> {
  let slice = await wait(signal);
  await harmonicsReady(texture);
  signal.throwIfAborted();
  // Its own harmonics: a sun light's balance makes the texture answer others while it shines.
  const polynomial = ownHarmonics(texture);
  if (!polynomial) throw new Error("The environment has no irradiance harmonics to bake");
  const size = texture.getSize().width;
  const levels: Uint16Array[][] = [];
  for (let mip = 0; mip < mipCount(size); mip++) {
    const faces: Uint16Array[] = [];
    for (let face = 0; face < 6; face++) {
      if (slice.timeRemaining() <= 0) slice = await wait(signal);
      signal.throwIfAborted();
      faces.push(toHalves(await texture.readPixels(face, mip), faceLength(size, mip)));
      onProgress?.((mip * 6 + face + 1) / (mipCount(size) * 6));
    }
    levels.push(faces);
  }
  // Laying the file out copies every texel once more: a slice of its own too.
  if (slice.timeRemaining() <= 0) await wait(signal);
  const header = { size, lodGenerationScale: texture.lodGenerationScale, lodGenerationOffset: texture.lodGenerationOffset, polynomial: coefficients(polynomial) };
  return encodeBakedTexels(header, levels);
}

/** A face read back (floats from WebGL, halves where the engine keeps them) as halves. */
function toHalves(pixels: ArrayBufferView | null, length: number): Uint16Array {
  if (pixels instanceof Uint16Array && pixels.length >= length) return pixels.slice(0, length);
  if (!(pixels instanceof Float32Array) || pixels.length < length) throw new Error("The environment read back is not floating point RGBA");
  const out = new Uint16Array(length);
  for (let i = 0; i < length; i++) out[i] = ToHalfFloat(pixels[i]!);
  return out;
}

function coefficients(p: SphericalPolynomial): number[][] {
  return [p.x, p.y, p.z, p.xx, p.yy, p.zz, p.yz, p.zx, p.xy].map((v) => [v.x, v.y, v.z]);
}
