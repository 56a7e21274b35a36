/**
 * The prefiltered environment baked for the cache as its own texels (baked-texels.ts): each
 * face of each mip read back from the GPU and stored as half floats, nothing encoded. Babylon's
 * `.env` bake also RGBD-encodes every face on the GPU, reads it back again and compresses it
 * to PNG on the main thread; this one costs the read-backs alone. They are asynchronous
 * (texel-readback.ts: the main thread never waits for the GPU), a few mips at a time, and what the
 * CPU does with them runs in idle slices, so the bake never competes with the page's frames
 * or the user's next action; it stops between read-backs once its signal aborts.
 */
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import type { SphericalPolynomial } from "@babylonjs/core/Maths/sphericalPolynomial.js";
import { encodeBakedTexels, mipCount } from "./baked-texels.ts";
import { idleSlice } from "../scheduling/idle-time.ts";
import { harmonicsReady } from "../environment/prefilter.ts";
import { ownHarmonics } from "../environment/own-harmonics.ts";
import { mipBatches, readMips } from "./texel-readback.ts";
import { WorkSlices, type WaitForSlice } from "../scheduling/work-slices.ts";
import { timedStep } from "../scheduling/step-timing.ts";

export type { WaitForSlice };

/**
 * The cache bytes of a prefiltered, ready cube texture with harmonics.
 * @param texture the environment
 * @param signal stops the bake before the next read-back (it rejects with the reason)
 * @param wait when to work
 * @param onProgress told the share of mips read (0..1) after each read-back
 * @returns the baked texels
 */
export async function bakeTexels(
  texture: BaseTexture,
  signal: AbortSignal,
  wait: WaitForSlice = idleSlice,
  onProgress?: (fraction: number) => void,
): Promise<Uint8Array> {
  const slices = new WorkSlices(wait, signal);
  await slices.next();
  await harmonicsReady(texture);
  signal.throwIfAborted();
  // Its own harmonics: a sun light's balance makes the texture answer others while it shines.
  const polynomial = ownHarmonics(texture);
  if (!polynomial) throw new Error("The environment has no irradiance harmonics to bake");
  const size = texture.getSize().width;
  const levels: Uint16Array[][] = [];
  for (const mips of mipBatches(size, mipCount(size))) {
    signal.throwIfAborted();
    levels.push(...(await readMips(texture, mips, slices, signal)));
    onProgress?.(levels.length / mipCount(size));
  }
  // Laying the file out copies every texel once more: a slice of its own too.
  await wait(signal);
  signal.throwIfAborted();
  const header = {
    size,
    lodGenerationScale: texture.lodGenerationScale,
    lodGenerationOffset: texture.lodGenerationOffset,
    polynomial: coefficients(polynomial),
  };
  return timedStep("bake-layout", () => encodeBakedTexels(header, levels));
}

function coefficients(p: SphericalPolynomial): number[][] {
  return [p.x, p.y, p.z, p.xx, p.yy, p.zz, p.yz, p.zx, p.xy].map((v) => [v.x, v.y, v.z]);
}
