/**
 * A texture's own irradiance harmonics, as Babylon computes them: what a sun light's balance
 * (environment-balance.ts) wraps, and what a baked file must hold whatever the balance
 * answers. Kept apart from the balance so a bake does not load the sun's code.
 */
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
// The accessor read here (textures that compute harmonics register it; this must not depend on them).
import "@babylonjs/core/Materials/Textures/baseTexture.polynomial.js";
import type { SphericalPolynomial } from "@babylonjs/core/Maths/sphericalPolynomial.js";
import type { Nullable } from "@babylonjs/core/types.js";

export const HARMONICS_KEY = "sphericalPolynomial";

/** Babylon's accessor of the property, from the texture's prototype chain. */
export function inherited(texture: BaseTexture): PropertyDescriptor {
  for (let p = Object.getPrototypeOf(texture) as object | null; p; p = Object.getPrototypeOf(p) as object | null) {
    const descriptor = Object.getOwnPropertyDescriptor(p, HARMONICS_KEY);
    if (descriptor) return descriptor;
  }
  throw new Error("This Babylon version has no BaseTexture.sphericalPolynomial");
}

/**
 * The harmonics Babylon computed for `texture`, whatever a balance makes it answer: what a
 * file baked from it must hold (a skybox loaded from that file takes the sun out itself).
 * @param texture an environment texture
 * @returns its own harmonics, or null before they are computed
 */
export function ownHarmonics(texture: BaseTexture): Nullable<SphericalPolynomial> {
  return inherited(texture).get!.call(texture) as Nullable<SphericalPolynomial>;
}
