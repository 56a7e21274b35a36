/**
 * The prefiltered environment baked to Babylon's `.env` (RGBD-encoded PNG mips plus the
 * irradiance harmonics): a file to ship or load with `CubeTexture`. Its texels are read back
 * as the cache's bake reads them (texel-bake.ts: asynchronously, converted in slices) and
 * encoded on the CPU (env-file.ts) in slices too, so the page keeps rendering meanwhile.
 */
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import { decodeBakedTexels } from "./baked-texels.ts";
import { encodeEnvFile } from "./env-file.ts";
import { harmonicsReady } from "../environment/prefilter.ts";
import { ownHarmonics } from "../environment/own-harmonics.ts";
import { bakeTexels } from "./texel-bake.ts";
import { nextTaskSlice, TASK_SLICE_MS } from "../scheduling/work-slices.ts";

/** The share of a bake's progress its read-backs stand for; the encoding takes the rest. */
const READ_SHARE = 0.5;

/**
 * The `.env` bytes of a prefiltered cube texture. Someone is waiting for it (a save), so it
 * runs in the next tasks rather than in idle time, yielding between faces.
 * @param texture a prefiltered, ready cube texture with harmonics
 * @param signal stops the bake before the next face (it rejects with the reason)
 * @param onProgress told the share done (0..1) as faces are read and encoded
 * @returns the .env file
 */
export async function bakeEnvironment(
  texture: BaseTexture,
  signal: AbortSignal = new AbortController().signal,
  onProgress?: (fraction: number) => void,
): Promise<Uint8Array> {
  signal.throwIfAborted();
  await harmonicsReady(texture);
  // Its own harmonics, not those a sun light's balance makes it answer: a skybox loaded
  // from the file takes the sun out itself.
  const polynomial = ownHarmonics(texture);
  if (!polynomial) throw new Error("The environment has no irradiance harmonics to bake");
  const texels = decodeBakedTexels(await bakeTexels(texture, signal, nextTaskSlice, (f) => onProgress?.(f * READ_SHARE)));
  const info = {
    size: texels.header.size,
    lodGenerationScale: texels.header.lodGenerationScale,
    polynomial,
    gammaSpace: texture.gammaSpace,
  };
  let yieldAt = performance.now() + TASK_SLICE_MS;
  return encodeEnvFile(info, texels.levels, async (done, total) => {
    onProgress?.(READ_SHARE + ((1 - READ_SHARE) * done) / total);
    if (performance.now() < yieldAt) return;
    await nextTaskSlice(signal);
    yieldAt = performance.now() + TASK_SLICE_MS;
  });
}
