/**
 * GGX prefiltering of an environment cube for PBR, with the caller's sample count instead of
 * the built-in 4096 (which takes minutes on a software GPU).
 */
import { HDRFiltering } from "@babylonjs/core/Materials/Textures/Filtering/hdrFiltering.js";
import type { AbstractEngine } from "@babylonjs/core/Engines/abstractEngine.js";
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import type { SphericalPolynomial } from "@babylonjs/core/Maths/sphericalPolynomial.js";
// BaseTexture.sphericalPolynomial as an accessor of the GPU texture's harmonics (unregistered,
// setting it only shadows the property on one texture object, and views sharing it see none).
import "@babylonjs/core/Materials/Textures/baseTexture.polynomial.js";

/**
 * Prefilters `texture` in place (HDRFiltering swaps its GPU texture for the filtered one) and
 * waits until the GPU has done it.
 * @param engine the engine
 * @param texture a ready cube texture
 * @param quality GGX samples
 * @param polynomial harmonics to put back on the new GPU texture, when known
 */
export async function prefilterEnvironment(
  engine: AbstractEngine,
  texture: BaseTexture,
  quality: number,
  polynomial: SphericalPolynomial | null,
): Promise<void> {
  if (!engine._features.allowTexturePrefiltering)
    throw new Error("This engine cannot prefilter environment textures (WebGL 2 or WebGPU is required)");
  await new HDRFiltering(engine, { quality }).prefilter(texture);
  if (polynomial) texture.sphericalPolynomial = polynomial;
  await prefilterDone(texture);
}

/**
 * Resolves once the GPU has written the prefiltered texture. `prefilter()` resolves when its
 * draws are queued. WebGL 2 waits on a fence placed after them, asked between tasks (a
 * synchronous read-back would hold the page until the GPU is done). WebGPU reads back one
 * texel of the texture's last mip (1x1, written last): it submits the queued commands and maps
 * the copy once they have run. The texture is read, never the canvas: between frames WebGPU's
 * swap-chain texture is already destroyed, and reading it is a validation error.
 * @param texture the prefiltered cube texture
 */
export async function prefilterDone(texture: BaseTexture): Promise<void> {
  const engine = texture.getInternalTexture()?.getEngine() as { _gl?: WebGL2RenderingContext; webGLVersion?: number } | undefined;
  // The fence's code loads on the first prefiltering (the core entry stays in its budget).
  if (engine?._gl && (engine.webGLVersion ?? 1) >= 2) return (await import("../scheduling/gpu-fence.ts")).gpuPassed(engine._gl);
  const lastMip = Math.floor(Math.log2(texture.getSize().width));
  const read = texture.readPixels(0, lastMip, null, true, false, 0, 0, 1, 1);
  // Babylon answers null when the engine cannot read the texture: then nothing was waited for.
  if (!read) throw new Error("The prefiltered environment could not be read back to wait for the GPU");
  await read;
}

/**
 * Resolves once the texture's irradiance harmonics exist. Cubes built from images compute
 * them lazily by reading the texture back; waiting here keeps the first frame correct.
 * @param texture a ready cube texture
 * @param timeoutMs give up after this long (the texture still works; diffuse light arrives later)
 */
export async function harmonicsReady(texture: BaseTexture, timeoutMs = 10_000): Promise<void> {
  if (texture.sphericalPolynomial) return;
  const pending = (texture.getInternalTexture() as { _sphericalPolynomialPromise?: Promise<unknown> | null } | null)
    ?._sphericalPolynomialPromise;
  if (!pending) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([pending.catch(() => undefined), new Promise((r) => (timer = setTimeout(r, timeoutMs)))]);
  clearTimeout(timer);
}
