/**
 * The noise that textures the ground at a point, as numbers the shading combines:
 *
 *   FINE     sum of the fine albedo noise's octaves (fbm2 on a 2 m lattice, gain 0.8), not
 *            yet divided by fbmNorm
 *   BUMP_X, BUMP_Z  gradient of the fine bump noise (fractalGrad on a 2 m lattice)
 *   PATCHES  the large albedo noise (ground-albedo.ts)
 *   SHADOW, CLOUDS  light reaching the point past the terrain and the clouds (NaN: the
 *            shading computes them if the point faces the light)
 *   VALUE    the fine albedo noise itself, FINE / fbmNorm (written by the shading)
 *
 * The point being shaded travels in an array too (position, normal, footprint and the
 * octave counts its footprint allows): a call with float arguments costs an allocation
 * for each, and these calls run for every pixel of ground.
 *
 * Both fine noises are sums of independent octaves, so a texture can be split by scale:
 * the coarse octaves interpolated from a grid, the fine ones added per pixel
 * (render/nadir-grid.ts).
 */
import { fbm2Octaves, fbmNorm } from "../../math/noise.ts";
import { fg, fractalGrad } from "../terrain/terrain-noise.ts";
import type { SurfaceParams } from "./surface.ts";

export const FINE = 0;
export const BUMP_X = 1;
export const BUMP_Z = 2;
export const PATCHES = 3;
export const SHADOW = 4;
export const CLOUDS = 5;
export const VALUE = 6;
export const TEXTURE_LENGTH = 7;

export const PX = 0;
export const PY = 1;
export const PZ = 2;
export const NX = 3;
export const NY = 4;
export const NZ = 5;
/** Metres per pixel there. */
export const FOOTPRINT = 6;
/** Octaves of the fine albedo and bump noise that show (0: none). */
export const ALBEDO_OCTAVES = 7;
export const BUMP_OCTAVES = 8;
/** fbmNorm of the albedo octaves (what FINE is divided by). */
export const ALBEDO_NORM = 9;
export const POINT_LENGTH = 10;

/**
 * Most octaves of the fine albedo and bump noise, before the detail level's: the finest
 * lattices are 1.6 and 3 cm, the scale of what an object stands on (grit, pebbles, tufts),
 * which the pixels under the camera, a few millimetres wide, show. Farther ground has
 * fewer octaves (its footprint's), so the extra ones cost only near the nadir, where more
 * rows are shaded pixel by pixel rather than read from a grid (render/nadir-grid.ts).
 */
const FINE_ALBEDO_OCTAVES = 8;
const FINE_BUMP_OCTAVES = 7;
/** Gain between the fine albedo noise's octaves. */
export const FINE_GAIN = 0.8;

/** Sets the point's footprint (m per pixel) and the octaves of fine texture it allows. */
export function setFootprint(P: SurfaceParams, point: Float64Array, footprint: number): void {
  const fine = Math.log2(2 / (2 * footprint + 1e-4)) + P.lodBias;
  const albedo = fine > 0 ? Math.min(FINE_ALBEDO_OCTAVES + P.detail, fine) : 0;
  point[FOOTPRINT] = footprint;
  point[ALBEDO_OCTAVES] = albedo;
  point[BUMP_OCTAVES] = fine > 0 ? Math.min(FINE_BUMP_OCTAVES + P.detail, fine) : 0;
  point[ALBEDO_NORM] = albedo > 0 ? fbmNorm(albedo, FINE_GAIN) : 1;
}

/**
 * Adds to tex the octaves of the fine albedo noise from `fromAlbedo` on and of the bump
 * noise from `fromBump` on, at the point.
 */
export function addFineTexture(point: Float64Array, fromAlbedo: number, fromBump: number, tex: Float64Array): void {
  const px = point[PX]!;
  const pz = point[PZ]!;
  const a = point[ALBEDO_OCTAVES]!;
  if (a > fromAlbedo) tex[FINE] = tex[FINE]! + fbm2Octaves(px / 2 + 3.3, pz / 2 - 8.1, fromAlbedo, a, FINE_GAIN);
  const b = point[BUMP_OCTAVES]!;
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
