/**
 * The environment lights without its sun while the sun light is on (sun-harmonics.ts).
 *
 * The harmonics live on the GPU texture, which other texture objects share: the background
 * bake's view (it must store the environment whole, or the next apply would take the sun out
 * twice) and the blurred background. So they are not changed; only this skybox's texture
 * object, the scene's environment, answers `sphericalPolynomial` with the balanced ones. An
 * own accessor on that object does it; removing it gives Babylon's back.
 */
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import type { SphericalPolynomial } from "@babylonjs/core/Maths/sphericalPolynomial.js";
import type { Nullable } from "@babylonjs/core/types.js";
import { HARMONICS_KEY, inherited } from "../environment/own-harmonics.ts";
import { withoutSun } from "./sun-harmonics.ts";

/**
 * Makes `texture` answer with its harmonics minus the sun's (recomputed whenever Babylon's
 * change, e.g. once computed lazily or put back after prefiltering).
 * @param texture the environment texture the scene lights with
 * @param sun the sun's polynomial in the cube's frame
 * @returns a function that gives the texture its own harmonics back (once; a later balance of the same texture is left alone)
 */
export function balanceEnvironment(texture: BaseTexture, sun: SphericalPolynomial): () => void {
  const own = inherited(texture);
  let source: Nullable<SphericalPolynomial> = null;
  let balanced: Nullable<SphericalPolynomial> = null;
  const get = function (this: BaseTexture): Nullable<SphericalPolynomial> {
    const original = own.get!.call(this) as Nullable<SphericalPolynomial>;
    if (!original) return null;
    if (original !== source) {
      source = original;
      balanced = withoutSun(original, sun);
    }
    return balanced;
  };
  Object.defineProperty(texture, HARMONICS_KEY, {
    configurable: true,
    enumerable: true,
    get,
    set(this: BaseTexture, value: Nullable<SphericalPolynomial>) {
      own.set!.call(this, value);
    },
  });
  return () => {
    if (Object.getOwnPropertyDescriptor(texture, HARMONICS_KEY)?.get === get)
      delete (texture as unknown as Record<string, unknown>)[HARMONICS_KEY];
  };
}
