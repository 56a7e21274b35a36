/**
 * The smooth layers of the sky along one row of the panorama, computed at a reduced
 * horizontal resolution and interpolated linearly between samples (wrapping around, so
 * the seam stays invisible): the atmosphere's colour, the Milky Way, nebulae and aurorae,
 * and the glow of fog against the sky. What depends on the row alone (the atmosphere's
 * transmittance, the fog's) is computed once. Vertically every row is exact, so the
 * horizon, where the sky changes fastest, is not smoothed.
 *
 * SAMPLES across 360 degrees are 0.35 degrees apart: the narrowest of these layers (the
 * sun's forward scattering, about 15 degrees wide; nebula filaments, a few degrees) have
 * dozens of samples across them, and the difference from evaluating every pixel is far
 * below one display level. Stars, the sun, the moon, planets and clouds stay per pixel.
 */
import { addAurora } from "../scene/sky/aurora.ts";
import { cloudCoarse, cloudForward, type CloudRow, createCloudRow, planCloudRow } from "../scene/sky/clouds.ts";
import { addMilkyWay } from "../scene/sky/celestial.ts";
import { skyFogGlow, skyFogTransmittance } from "../scene/fog.ts";
import type { PreparedScene } from "../scene/prepare-scene.ts";
import { atmosphere, viewTransmittance } from "../scene/sky/sky.ts";
import { addNebula } from "../scene/sky/space.ts";
import { azimuthOfU } from "../../../api/panorama/panorama-directions.ts";

/** Samples per row (or the width, if smaller). */
const SAMPLES = 1024;
/**
 * Values per sample: atmosphere (3), star-field glow (3, Milky Way and nebula), aurora
 * (3), dust, fog glow, the coarse octaves of the clouds and their self-shadow sample,
 * and the clouds' forward scattering.
 */
export const STRIDE = 14;
export const ATM = 0;
export const FIELD = 3;
export const AURORA = 6;
export const DUST = 9;
export const GLOW = 10;
export const CLOUD = 11;
export const CLOUD_SHADE = 12;
export const FORWARD = 13;

export interface SkyRow {
  /** Row these values are for (-1: none yet). */
  y: number;
  /** Panorama width, samples, and samples per pixel column. */
  width: number;
  n: number;
  perColumn: number;
  values: Float64Array;
  /** Whether the row has anything of the night sky (stars, Milky Way, nebulae, aurorae) to add. */
  night: boolean;
  /** Transmittance of the atmosphere along the row's rays, and of fog seen against the sky. */
  trans: Float64Array;
  fogT: number;
  clouds: CloudRow;
  sin: Float64Array;
  cos: Float64Array;
}

export function createSkyRow(width: number): SkyRow {
  const n = Math.min(width, SAMPLES);
  const sin = new Float64Array(n);
  const cos = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    // Sample k sits where column k * width / n does (the same pixel-centre convention).
    const a = azimuthOfU(((k * width) / n + 0.5) / width);
    sin[k] = Math.sin(a);
    cos[k] = Math.cos(a);
  }
  return {
    y: -1,
    width,
    n,
    perColumn: n / width,
    values: new Float64Array((n + 1) * STRIDE),
    night: false,
    trans: new Float64Array(3),
    fogT: 1,
    clouds: createCloudRow(),
    sin,
    cos,
  };
}

const tmp = new Float64Array(3);

/** Computes row y's samples (elevation sine sp, cosine cp). */
export function fillSkyRow(P: PreparedScene, R: SkyRow, y: number, sp: number, cp: number): void {
  R.y = y;
  viewTransmittance(P.sky, sp, R.trans);
  R.fogT = P.open ? 1 : skyFogTransmittance(P.fog, sp);
  planCloudRow(P.clouds, P.camY, sp, R.width / R.n, R.clouds);
  const v = R.values;
  let night = P.celestial.stars > 0;
  for (let k = 0; k < R.n; k++) {
    const dx = R.sin[k]! * cp;
    const dz = -R.cos[k]! * cp;
    const o = k * STRIDE;
    atmosphere(P.sky, dx, sp, dz, tmp);
    v[o + ATM] = tmp[0]!;
    v[o + ATM + 1] = tmp[1]!;
    v[o + ATM + 2] = tmp[2]!;
    tmp[0] = tmp[1] = tmp[2] = 0;
    addMilkyWay(P.celestial, dx, sp, dz, tmp);
    for (let c = 0; c < 3; c++) tmp[c] = tmp[c]! * P.celestial.stars;
    v[o + DUST] = addNebula(P.space, dx, sp, dz, 1, tmp);
    v[o + FIELD] = tmp[0]!;
    v[o + FIELD + 1] = tmp[1]!;
    v[o + FIELD + 2] = tmp[2]!;
    tmp[0] = tmp[1] = tmp[2] = 0;
    addAurora(P.celestial, dx, sp, dz, tmp);
    v[o + AURORA] = tmp[0]!;
    v[o + AURORA + 1] = tmp[1]!;
    v[o + AURORA + 2] = tmp[2]!;
    v[o + GLOW] = skyFogGlow(P.sky, dx, sp, dz);
    cloudCoarse(P.clouds, R.clouds, dx, dz, v, o + CLOUD);
    v[o + FORWARD] = P.clouds.on ? cloudForward(P.clouds, dx, sp, dz) : 0;
    night ||=
      v[o + DUST] !== 1 ||
      v[o + FIELD] !== 0 ||
      v[o + FIELD + 1] !== 0 ||
      v[o + FIELD + 2] !== 0 ||
      v[o + AURORA] !== 0 ||
      v[o + AURORA + 1] !== 0 ||
      v[o + AURORA + 2] !== 0;
  }
  R.night = night;
  // A copy of the first sample after the last: interpolation wraps without a branch.
  v.copyWithin(R.n * STRIDE, 0, STRIDE);
}

/** Where column x reads the row: the sample before it (offset into values) and the weight of the next. */
export const skyAt = { o: 0, w: 0 };

export function locateSky(R: SkyRow, x: number): void {
  const s = x * R.perColumn;
  const k = s | 0;
  skyAt.o = k * STRIDE;
  skyAt.w = s - k;
}
