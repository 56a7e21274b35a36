/**
 * The noise that textures the ground at a point, as numbers the shading combines:
 *
 *   FINE     sum of the fine albedo noise's octaves (fbm2 on a 2 m lattice, gain 0.8), not
 *            yet divided by fbmNorm
 *   BUMP_X, BUMP_Z  gradient of the fine bump noise (fractalGrad on a 2 m lattice)
 *   PATCHES  the large albedo noise (ground-albedo.ts)
 *   SHADOW, CLOUDS  light reaching the point past the terrain and the clouds (NaN: the
 *            shading computes them if the point faces the light)
 *
 * Both fine noises are sums of independent octaves, so a texture can be split by scale:
 * the coarse octaves interpolated from a grid, the fine ones added per pixel
 * (render/nadir-grid.ts).
 */
import { fbm2Octaves } from "../math/noise.ts";
import { fg, fractalGrad } from "./terrain-noise.ts";
import type { SurfaceParams } from "./surface.ts";

export const FINE = 0;
export const BUMP_X = 1;
export const BUMP_Z = 2;
export const PATCHES = 3;
export const SHADOW = 4;
export const CLOUDS = 5;
export const TEXTURE_LENGTH = 6;

/** Most octaves of the fine albedo and bump noise, before the detail level's. */
const FINE_ALBEDO_OCTAVES = 6;
const FINE_BUMP_OCTAVES = 5;
/** Gain between the fine albedo noise's octaves. */
export const FINE_GAIN = 0.8;

/** Level of detail of the fine texture for a footprint (m per pixel): > 0 where it shows. */
function fineLevel(P: SurfaceParams, footprint: number): number {
  return Math.log2(2 / (2 * footprint + 1e-4)) + P.lodBias;
}

/** Octaves of the fine albedo noise seen with a footprint (0: none); its finest lattice is 2^(2 - octaves) m. */
export function fineAlbedoOctaves(P: SurfaceParams, footprint: number): number {
  const fine = fineLevel(P, footprint);
  return fine > 0 ? Math.min(FINE_ALBEDO_OCTAVES + P.detail, fine) : 0;
}

/** Octaves of the fine bump noise seen with a footprint (0: none). */
export function fineBumpOctaves(P: SurfaceParams, footprint: number): number {
  const fine = fineLevel(P, footprint);
  return fine > 0 ? Math.min(FINE_BUMP_OCTAVES + P.detail, fine) : 0;
}

/**
 * Adds to tex the octaves of the fine albedo noise from `fromAlbedo` on and of the bump
 * noise from `fromBump` on, at (px, pz) seen with `footprint`.
 */
export function addFineTexture(P: SurfaceParams, px: number, pz: number, footprint: number, fromAlbedo: number, fromBump: number, tex: Float64Array): void {
  const a = fineAlbedoOctaves(P, footprint);
  if (a > fromAlbedo) tex[FINE] = tex[FINE]! + fbm2Octaves(px / 2 + 3.3, pz / 2 - 8.1, fromAlbedo, a, FINE_GAIN);
  const b = fineBumpOctaves(P, footprint);
  if (b > fromBump) {
    fractalGrad(px, pz, 1 / 2, 11.3, 5.7, b, false, fromBump);
    tex[BUMP_X] = tex[BUMP_X]! + fg[0]!;
    tex[BUMP_Z] = tex[BUMP_Z]! + fg[1]!;
  }
}

/** Only the first `albedoOctaves` and `bumpOctaves` (whole octaves) of the fine noise, into tex (replacing). */
export function coarseFineTexture(px: number, pz: number, albedoOctaves: number, bumpOctaves: number, tex: Float64Array): void {
  tex[FINE] = albedoOctaves > 0 ? fbm2Octaves(px / 2 + 3.3, pz / 2 - 8.1, 0, albedoOctaves, FINE_GAIN) : 0;
  if (bumpOctaves > 0) {
    fractalGrad(px, pz, 1 / 2, 11.3, 5.7, bumpOctaves, false);
    tex[BUMP_X] = fg[0]!;
    tex[BUMP_Z] = fg[1]!;
  } else {
    tex[BUMP_X] = 0;
    tex[BUMP_Z] = 0;
  }
}
