/**
 * A cloud layer on a horizontal plane above the camera: the ray's hit point on the plane
 * (a function of the 3D direction) feeds 2D fractal noise, with level of detail from the
 * pixel footprint there, self-shadowing toward the light, a silver lining near it, and
 * aerial fading with distance. Also gives the shadow the clouds cast on the ground.
 * Everything but the direction's azimuth is the same along a row of the panorama, so the
 * render plans each row once and takes the coarse octaves from the sky's row samples.
 */
import { fbm2, fbm2Octaves, fbmNorm } from "../../math/noise.ts";
import { clamp, smoothstep } from "../../math/scalar.ts";
import type { SceneSpec } from "../scene-spec.ts";
import { detailBias } from "../terrain/terrain.ts";

export interface CloudParams {
  on: boolean;
  altitude: number;
  invScale: number;
  threshold: number;
  /** Density -> opacity steepness (higher: crisper edges). */
  sharpness: number;
  darkness: number;
  cirrus: boolean;
  maxOctaves: number;
  lodBias: number;
  pixelAngle: number;
  /** Horizontal offset toward the light for the self-shadow sample (noise units). */
  shx: number;
  shz: number;
  lx: number;
  ly: number;
  lz: number;
  /** Distance at which clouds fade into the sky. */
  fadeDistance: number;
  ox: number;
  oz: number;
}

export function prepareClouds(scene: SceneSpec, width: number, light: [number, number, number], sharpness: number): CloudParams {
  const c = scene.clouds;
  const [lx, ly, lz] = light;
  const horiz = Math.hypot(lx, lz) || 1;
  const reach = 0.12 / Math.max(0.15, ly);
  return {
    on: c !== null,
    altitude: c?.altitude ?? 2000,
    invScale: 1 / (c?.scale ?? 2000),
    threshold: 0.28 - (c?.coverage ?? 0) * 0.72,
    sharpness: 3.2 * sharpness,
    darkness: c?.darkness ?? 0,
    cirrus: c?.cirrus ?? false,
    maxOctaves: 6 + scene.detail,
    lodBias: detailBias(scene.detail),
    pixelAngle: (2 * Math.PI) / width,
    shx: (lx / horiz) * Math.min(reach, 0.5),
    shz: (lz / horiz) * Math.min(reach, 0.5),
    lx,
    ly,
    lz,
    fadeDistance: 45000 * (1 - 0.6 * scene.fog),
    ox: (scene.seed % 997) * 7.3,
    oz: (scene.seed % 991) * 3.1,
  };
}

/** Raw cloud noise above the coverage threshold (<= 0: clear sky, then not exact). */
function excess(K: CloudParams, x: number, z: number, octaves: number): number {
  const n = K.cirrus
    ? fbm2(x * 0.35 + K.ox, z * 3 + K.oz, octaves, 0.55, K.threshold)
    : fbm2(x + K.ox, z + K.oz, octaves, 0.52, K.threshold);
  return n - K.threshold;
}

function density(K: CloudParams, x: number, z: number, octaves: number): number {
  return clamp(excess(K, x, z, octaves) * K.sharpness, 0, 1);
}

/**
 * The cloud layer along one row of a panorama (rays with vertical component dy): where
 * the rays meet it and how much detail shows there, which is the same all along the row.
 * The first `cut` octaves of the noise (and `shadeCut` of the self-shadow sample's) vary
 * slowly enough along the row for a coarse grid to carry them (cloudCoarse); a pixel adds
 * the rest (cloudAt).
 */
export interface CloudRow {
  /** Distance along the rays to the layer (Infinity: they never meet it where it shows). */
  t: number;
  /** Aerial fading at t. */
  far: number;
  octaves: number;
  shadeOctaves: number;
  cut: number;
  shadeCut: number;
  /** Total weight of the octaves (fbmNorm), and the weight of the octaves from the cut on. */
  norm: number;
  left: number;
  shadeNorm: number;
  shadeLeft: number;
}

export function createCloudRow(): CloudRow {
  return { t: Infinity, far: 1, octaves: 0, shadeOctaves: 0, cut: 0, shadeCut: 0, norm: 0, left: 0, shadeNorm: 0, shadeLeft: 0 };
}

/** A coarse octave must span this many grid samples. */
const SAMPLES_PER_LATTICE = 6;

/** Plans row R for rays of vertical component dy seen from camY, a coarse grid having `spacing` pixels between samples. */
export function planCloudRow(K: CloudParams, camY: number, dy: number, spacing: number, R: CloudRow): void {
  R.t = Infinity;
  if (!K.on || dy <= 0.002 || camY >= K.altitude) return;
  const t = (K.altitude - camY) / dy;
  const far = 1 - Math.exp(-t / K.fadeDistance);
  if (far > 0.995) return;
  R.t = t;
  R.far = far;
  // Noise units per pixel; cirrus noise is squeezed threefold across its streaks.
  const footprint = t * K.pixelAngle * K.invScale;
  R.octaves = clamp(Math.log2(1 / footprint) - 0.5 + K.lodBias, 1, K.maxOctaves);
  R.shadeOctaves = Math.min(3, R.octaves);
  // Octave i's lattice is 2^-i noise units.
  const coarse = Math.floor(-Math.log2(SAMPLES_PER_LATTICE * spacing * footprint * (K.cirrus ? 3 : 1))) + 1;
  R.cut = clamp(coarse, 0, Math.floor(R.octaves));
  R.shadeCut = clamp(coarse, 0, Math.floor(R.shadeOctaves));
  const gain = K.cirrus ? 0.55 : 0.52;
  R.norm = fbmNorm(R.octaves, gain);
  R.left = R.norm - fbmNorm(R.cut, gain);
  R.shadeNorm = fbmNorm(R.shadeOctaves, gain);
  R.shadeLeft = R.shadeNorm - fbmNorm(R.shadeCut, gain);
}

/** The noise's octaves [from, to) at the layer point (x, z) (noise units), weighted and summed; `stop` as in fbm2Octaves. */
function cloudOctaves(K: CloudParams, x: number, z: number, from: number, to: number, left: number, stop: number): number {
  return K.cirrus
    ? fbm2Octaves(x * 0.35 + K.ox, z * 3 + K.oz, from, to, 0.55, left, stop)
    : fbm2Octaves(x + K.ox, z + K.oz, from, to, 0.52, left, stop);
}

/** The coarse octaves of the row's noise (out[o]) and of its self-shadow sample (out[o + 1]) along direction (dx, dz). */
export function cloudCoarse(K: CloudParams, R: CloudRow, dx: number, dz: number, out: Float64Array, o: number): void {
  if (R.t === Infinity) return;
  const x = dx * R.t * K.invScale;
  const z = dz * R.t * K.invScale;
  out[o] = cloudOctaves(K, x, z, 0, R.cut, 0, -Infinity);
  out[o + 1] = cloudOctaves(K, x + K.shx, z + K.shz, 0, R.shadeCut, 0, -Infinity);
}

/** The inputs of cloudAt (floats pass in memory: a float argument costs an allocation a pixel). */
export const CLOUD_IN = { maxDistance: 0, coarse: 1, coarseShade: 2, forward: 3, length: 4 } as const;

/**
 * How much light the cloud scatters forward (toward the viewer looking near the light)
 * along a direction: a smooth lobe some 20 degrees wide, so the render takes it from the
 * sky's row samples.
 */
export function cloudForward(K: CloudParams, dx: number, dy: number, dz: number): number {
  const cosG = dx * K.lx + dy * K.ly + dz * K.lz;
  const g = 0.6;
  const base = 1 + g * g - 2 * g * cosG;
  return (1 - g * g) / (base * Math.sqrt(base));
}

/**
 * The cloud along direction `ray` of row R, in front of something at
 * input[maxDistance], given the coarse octaves there and the forward scattering
 * (cloudCoarse, cloudForward; interpolated): writes the cloud's own colour into out and
 * returns its opacity (0 = clear). `direct` and `ambient` light it.
 */
export function cloudAt(
  K: CloudParams,
  R: CloudRow,
  ray: Float64Array,
  input: Float64Array,
  direct: Float64Array,
  ambient: Float64Array,
  out: Float64Array,
): number {
  const t = R.t;
  if (t === Infinity || t > input[CLOUD_IN.maxDistance]!) return 0;
  const coarse = input[CLOUD_IN.coarse]!;
  const coarseShade = input[CLOUD_IN.coarseShade]!;
  const dx = ray[0]!;
  const dz = ray[2]!;
  // Clear sky once the octaves left cannot lift the noise over the threshold.
  const stop = K.threshold * R.norm;
  if (coarse + R.left <= stop) return 0;
  const x = dx * t * K.invScale;
  const z = dz * t * K.invScale;
  const e = (coarse + cloudOctaves(K, x, z, R.cut, R.octaves, R.left, stop - coarse)) / R.norm - K.threshold;
  const d = clamp(e * K.sharpness, 0, 1);
  if (d <= 0) return 0;
  // Thickness keeps varying where a dense deck is already opaque (overcast texture).
  const thick = clamp(e * 1.4, 0, 1);
  const shadeStop = K.threshold * R.shadeNorm;
  const e2 =
    (coarseShade + cloudOctaves(K, x + K.shx, z + K.shz, R.shadeCut, R.shadeOctaves, R.shadeLeft, shadeStop - coarseShade)) / R.shadeNorm -
    K.threshold;
  const shade = Math.exp(-2.2 * clamp(e2 * 2, 0, 1) * (1 + K.darkness)) * (1 - 0.45 * thick);
  const thin = 1 - d;
  const lit = (0.3 + 0.7 * shade) * (1 + 0.35 * input[CLOUD_IN.forward]! * (0.3 + thin));
  const dark = 1 - 0.78 * K.darkness;
  const amb = 0.75 + 0.25 * thin;
  for (let c = 0; c < 3; c++) out[c] = (direct[c]! * lit * 0.32 + ambient[c]! * amb * 0.42) * dark;
  const alpha = Math.min(0.985, smoothstep(0, 1, d * 1.6));
  return alpha * (1 - R.far);
}

/** Fraction of light reaching ground point (x, y, z) through the clouds (1 = no cloud). */
export function cloudShadow(K: CloudParams, x: number, y: number, z: number): number {
  if (!K.on || K.ly < 0.03 || y >= K.altitude) return 1;
  const s = (K.altitude - y) / K.ly;
  const d = density(K, (x + K.lx * s) * K.invScale, (z + K.lz * s) * K.invScale, 3);
  return 1 - 0.8 * smoothstep(0, 1, d * 1.6);
}
