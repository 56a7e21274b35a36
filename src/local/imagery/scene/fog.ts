/**
 * Aerial perspective and ground fog between the camera and a surface (or the sky):
 * per-channel haze extinction (blue fades first, so far ridges turn blue) plus an
 * exponential height fog integrated analytically along the ray.
 */
import { atmosphere, type SkyParams } from "./sky.ts";
import type { SceneSpec } from "./scene-spec.ts";

export interface FogParams {
  /** Haze extinction per metre, per channel. */
  haze: Float64Array;
  /** Fog extinction per metre at fogBase, its scale height and base altitude. */
  fog: number;
  fogHeight: number;
  fogBase: number;
  camY: number;
  /** Colour of lit fog (linear). */
  fogColor: Float64Array;
  /** Sky colour just above the horizon by cosine of the azimuth to the light (129 x RGB). */
  horizon: Float64Array;
  /** Horizontal light direction (unit) and whether it has one. */
  hx: number;
  hz: number;
}

const LUT = 128;

const tmp = new Float64Array(3);

export function prepareFog(scene: SceneSpec, sky: SkyParams, camY: number): FogParams {
  const k = 1 + scene.fog * 3;
  const fogDensity = scene.fog > 0.4 ? (scene.fog - 0.3) * 0.006 : scene.fog * 0.0003;
  const fogColor = new Float64Array(3);
  for (let c = 0; c < 3; c++) fogColor[c] = sky.ambient[c]! * 0.55 + sky.direct[c]! * 0.12;
  const hl = Math.hypot(sky.lx, sky.lz) || 1;
  const hx = sky.lx / hl;
  const hz = sky.lz / hl;
  const horizon = new Float64Array((LUT + 1) * 3);
  for (let i = 0; i <= LUT; i++) {
    const c = (i / LUT) * 2 - 1;
    const s = Math.sqrt(Math.max(0, 1 - c * c));
    // A horizontal direction at angle acos(c) from the light's azimuth.
    atmosphere(sky, (hx * c - hz * s) * 0.999, 0.035, (hz * c + hx * s) * 0.999, tmp);
    horizon.set(tmp, i * 3);
  }
  return {
    hx,
    hz,
    horizon,
    haze: Float64Array.from([0.012e-3 * k, 0.019e-3 * k, 0.034e-3 * k]),
    fog: fogDensity,
    fogHeight: scene.fog > 0.4 ? 120 : 600,
    fogBase: scene.water ? scene.water.level : 0,
    camY,
    fogColor,
  };
}

/**
 * Blends out[0..2] (radiance of what lies at `dist` along the ray, Infinity for sky) toward
 * the in-scattered light.
 */
export function applyFog(F: FogParams, S: SkyParams, dist: number, dx: number, dy: number, dz: number, out: Float64Array): void {
  const sky = dist === Infinity;
  // Height fog optical depth from the camera to dist (or to infinity upward).
  let fogDepth = 0;
  if (F.fog > 0) {
    const start = F.fog * Math.exp(-(F.camY - F.fogBase) / F.fogHeight);
    const k = dy / F.fogHeight;
    if (sky) fogDepth = dy > 0.001 ? start / k : start * 4e4;
    else fogDepth = Math.abs(k * dist) < 1e-4 ? start * dist : (start * (1 - Math.exp(-k * dist))) / k;
  }
  if (sky) {
    if (fogDepth <= 0) return;
    // Fog seen against the sky: its own lit colour, brighter toward the light.
    const toward = dx * S.lx + dy * S.ly + dz * S.lz;
    const glow = 0.85 + 0.6 * Math.pow(toward > 0 ? toward : 0, 12);
    const fogT = Math.exp(-fogDepth);
    for (let c = 0; c < 3; c++) out[c] = out[c]! * fogT + F.fogColor[c]! * glow * (1 - fogT);
    return;
  }
  // Haze colour: the sky just above the horizon in this azimuth.
  const hl = Math.sqrt(dx * dx + dz * dz) || 1;
  const f = (((dx * F.hx + dz * F.hz) / hl + 1) / 2) * LUT;
  const i = f >= LUT ? LUT - 1 : f <= 0 ? 0 : f | 0;
  const a = f - i;
  const lut = F.horizon;
  for (let c = 0; c < 3; c++) tmp[c] = lut[i * 3 + c]! * (1 - a) + lut[i * 3 + 3 + c]! * a;
  const fogT = Math.exp(-fogDepth);
  const d = dist > 3e5 ? 3e5 : dist;
  for (let c = 0; c < 3; c++) {
    const hazeT = Math.exp(-F.haze[c]! * d);
    const withHaze = out[c]! * hazeT + tmp[c]! * (1 - hazeT);
    out[c] = withHaze * fogT + (F.fogColor[c]! * 0.7 + tmp[c]! * 0.3) * (1 - fogT);
  }
}

/** Mean transmittance (0..1) of haze and fog between the camera and `dist` along the ray. */
export function fogTransmittance(F: FogParams, dist: number, dy: number): number {
  let fogDepth = 0;
  if (F.fog > 0) {
    const start = F.fog * Math.exp(-(F.camY - F.fogBase) / F.fogHeight);
    const k = dy / F.fogHeight;
    fogDepth = Math.abs(k * dist) < 1e-4 ? start * dist : (start * (1 - Math.exp(-k * dist))) / k;
  }
  const d = dist > 3e5 ? 3e5 : dist;
  return Math.exp(-fogDepth - F.haze[1]! * d);
}
