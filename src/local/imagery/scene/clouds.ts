/**
 * A cloud layer on a horizontal plane above the camera: the ray's hit point on the plane
 * (a function of the 3D direction) feeds 2D fractal noise, with level of detail from the
 * pixel footprint there, self-shadowing toward the light, a silver lining near it, and
 * aerial fading with distance. Also gives the shadow the clouds cast on the ground.
 */
import { fbm2 } from "../math/noise.ts";
import { clamp, smoothstep } from "../math/scalar.ts";
import type { SceneSpec } from "./scene-spec.ts";
import { detailBias } from "./terrain.ts";

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
  const n = K.cirrus ? fbm2(x * 0.35 + K.ox, z * 3 + K.oz, octaves, 0.55, K.threshold) : fbm2(x + K.ox, z + K.oz, octaves, 0.52, K.threshold);
  return n - K.threshold;
}

function density(K: CloudParams, x: number, z: number, octaves: number): number {
  return clamp(excess(K, x, z, octaves) * K.sharpness, 0, 1);
}

/**
 * Cloud along a direction seen from height camY: writes [r, g, b] of the cloud's own
 * colour into out and returns its opacity (0 = clear). `direct` and `ambient` light it.
 */
export function cloudAlong(
  K: CloudParams,
  camY: number,
  dx: number,
  dy: number,
  dz: number,
  maxDistance: number,
  direct: Float64Array,
  ambient: Float64Array,
  out: Float64Array,
): number {
  if (!K.on || dy <= 0.002 || camY >= K.altitude) return 0;
  const t = (K.altitude - camY) / dy;
  if (t > maxDistance) return 0;
  const far = 1 - Math.exp(-t / K.fadeDistance);
  if (far > 0.995) return 0;
  const x = dx * t * K.invScale;
  const z = dz * t * K.invScale;
  const footprint = t * K.pixelAngle * K.invScale;
  const octaves = clamp(Math.log2(1 / footprint) - 0.5 + K.lodBias, 1, K.maxOctaves);
  const e = excess(K, x, z, octaves);
  const d = clamp(e * K.sharpness, 0, 1);
  if (d <= 0) return 0;
  // Thickness keeps varying where a dense deck is already opaque (overcast texture).
  const thick = clamp(e * 1.4, 0, 1);
  const e2 = excess(K, x + K.shx, z + K.shz, Math.min(3, octaves));
  const shade = Math.exp(-2.2 * clamp(e2 * 2, 0, 1) * (1 + K.darkness)) * (1 - 0.45 * thick);
  const cosG = dx * K.lx + dy * K.ly + dz * K.lz;
  const g = 0.6;
  const base = 1 + g * g - 2 * g * cosG;
  const forward = (1 - g * g) / (base * Math.sqrt(base));
  const thin = 1 - d;
  const lit = (0.3 + 0.7 * shade) * (1 + 0.35 * forward * (0.3 + thin));
  const dark = 1 - 0.78 * K.darkness;
  const amb = 0.75 + 0.25 * thin;
  for (let c = 0; c < 3; c++) out[c] = (direct[c]! * lit * 0.32 + ambient[c]! * amb * 0.42) * dark;
  const alpha = Math.min(0.985, smoothstep(0, 1, d * 1.6));
  return alpha * (1 - far);
}

/** Fraction of light reaching ground point (x, y, z) through the clouds (1 = no cloud). */
export function cloudShadow(K: CloudParams, x: number, y: number, z: number): number {
  if (!K.on || K.ly < 0.03 || y >= K.altitude) return 1;
  const s = (K.altitude - y) / K.ly;
  const d = density(K, (x + K.lx * s) * K.invScale, (z + K.lz * s) * K.invScale, 3);
  return 1 - 0.8 * smoothstep(0, 1, d * 1.6);
}
