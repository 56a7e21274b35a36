/**
 * Water surfaces: a plane at the water level with wave normals from noise (faded by the
 * pixel footprint so distant water turns into a calm mirror). The render pass shades the
 * water body and records the reflection weight; the reflection pass then adds the
 * panorama's own radiance seen along the reflected direction (sky, clouds, sun glitter and
 * the mountains behind the lake), which is exact for distant scenery.
 */
import { nd, noise2 } from "../math/noise.ts";
import type { Rgb, SceneSpec } from "./scene-spec.ts";

export interface WaterParams {
  on: boolean;
  level: number;
  tint: Rgb;
  roughness: number;
  /** Wavelengths (m) of the wave octaves. */
  scales: number[];
}

export function prepareWater(scene: SceneSpec): WaterParams {
  const w = scene.water;
  const ocean = w?.kind === "ocean";
  return {
    on: w !== null,
    level: w?.level ?? 0,
    tint: w?.tint ?? [0, 0, 0],
    roughness: (w?.roughness ?? 0.3) * (scene.weather === "storm" ? 1.8 : 1),
    scales: ocean ? [14, 5, 1.8, 0.7] : [6, 2, 0.7],
  };
}

/** Unit wave normal at (x, z) for a surface seen with the given footprint (m per pixel). */
export function waveNormal(Wp: WaterParams, x: number, z: number, footprint: number, out: Float64Array): void {
  let gx = 0;
  let gz = 0;
  for (let i = 0; i < Wp.scales.length; i++) {
    const s = Wp.scales[i]!;
    // An octave under two pixels a wave averages out to a flat surface (drawn from one
    // normal a pixel, it would alias into a pattern of single-pixel bricks).
    const lod = Math.min(1, Math.max(0, (s / footprint - 2) / 4));
    if (lod <= 0) continue;
    noise2(x / (s * 1.7) + i * 17.3, z / s - i * 5.1);
    const a = Wp.roughness * 0.3 * lod;
    gx += (a * nd[1]!) / 1.7;
    gz += a * nd[2]!;
  }
  const inv = 1 / Math.sqrt(gx * gx + 1 + gz * gz);
  out[0] = -gx * inv;
  out[1] = inv;
  out[2] = -gz * inv;
}

/** Schlick Fresnel reflectance of water for the cosine between view and normal. */
export function waterFresnel(cosTheta: number): number {
  const m = 1 - (cosTheta < 0 ? 0 : cosTheta > 1 ? 1 : cosTheta);
  const m2 = m * m;
  return 0.02 + 0.98 * m2 * m2 * m;
}

/** Radiance of the water body (light scattered back from below the surface) into out. */
export function waterBody(Wp: WaterParams, direct: Float64Array, ambient: Float64Array, sunUp: number, out: Float64Array): void {
  for (let c = 0; c < 3; c++) out[c] = Wp.tint[c]! * (ambient[c]! * 0.9 + direct[c]! * sunUp * 0.5);
}
