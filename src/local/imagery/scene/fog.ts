/**
 * Aerial perspective and ground fog between the camera and a surface (or the sky):
 * per-channel haze extinction (blue fades first, so far ridges turn blue) plus an
 * exponential height fog integrated analytically along the ray. Both depend on a ray only
 * through its row (vertical component), its azimuth (the haze colour) and the distance,
 * so the render reads them from per-row tables and per-column colours.
 */
import { atmosphere, type SkyParams } from "./sky/sky.ts";
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
  /** Fog extinction per metre at the camera's height. */
  start: number;
}

const LUT = 128;

const tmp = new Float64Array(3);

export function prepareFog(scene: SceneSpec, sky: SkyParams, camY: number): FogParams {
  const k = 1 + scene.fog * 3;
  const fogDensity = scene.fog > 0.4 ? (scene.fog - 0.3) * 0.006 : scene.fog * 0.0003;
  const fogHeight = scene.fog > 0.4 ? 120 : 600;
  const fogBase = scene.water ? scene.water.level : 0;
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
    fogHeight,
    fogBase,
    camY,
    fogColor,
    start: fogDensity * Math.exp(-(camY - fogBase) / fogHeight),
  };
}

/** Fog optical depth from the camera along a ray of vertical component dy, to `dist` or (Infinity) out of the fog. */
function fogDepthAlong(F: FogParams, dy: number, dist: number): number {
  if (F.fog <= 0) return 0;
  const k = dy / F.fogHeight;
  if (dist === Infinity) return dy > 0.001 ? F.start / k : F.start * 4e4;
  return Math.abs(k * dist) < 1e-4 ? F.start * dist : (F.start * (1 - Math.exp(-k * dist))) / k;
}

/**
 * Fog seen against the sky, for one row (dy): the transmittance the sky behind is
 * multiplied by (1 = no fog). The fog's own light is `skyFogGlow` * fogColor * (1 - it).
 */
export function skyFogTransmittance(F: FogParams, dy: number): number {
  const depth = fogDepthAlong(F, dy, Infinity);
  return depth > 0 ? Math.exp(-depth) : 1;
}

/** Brightness of fog seen against the sky along a direction: brighter toward the light. */
export function skyFogGlow(S: SkyParams, dx: number, dy: number, dz: number): number {
  const toward = dx * S.lx + dy * S.ly + dz * S.lz;
  return 0.85 + 0.6 * Math.pow(toward > 0 ? toward : 0, 12);
}

/** Colour of the haze (the sky just above the horizon) in a direction's azimuth, into out. */
export function hazeColour(F: FogParams, dx: number, dz: number, out: Float64Array, o = 0): void {
  const hl = Math.sqrt(dx * dx + dz * dz) || 1;
  const f = (((dx * F.hx + dz * F.hz) / hl + 1) / 2) * LUT;
  const i = f >= LUT ? LUT - 1 : f <= 0 ? 0 : f | 0;
  const a = f - i;
  const lut = F.horizon;
  for (let c = 0; c < 3; c++) out[o + c] = lut[i * 3 + c]! * (1 - a) + lut[i * 3 + 3 + c]! * a;
}

/*
 * Haze and fog between the camera and a surface at distance d along a row's rays, as a
 * table over d: the surface's radiance becomes out * A + haze * B + fogColor * C with
 * per-channel A and B. Nodes sit at d = 2^e * (1 + m / STEPS) metres (e = 0..OCTAVES-1),
 * found from the bits of d as a float32, and are interpolated linearly in d: the fog of a
 * pixel costs no exponential.
 */
const STEPS_LOG2 = 4;
const OCTAVES = 20;
/** Values per node: A (3), B (3), C. */
const NODE = 7;
/** Length of a row's fog table. */
export const FOG_TABLE_LENGTH = (OCTAVES << STEPS_LOG2) * NODE + NODE;
const MAX_HAZE_DISTANCE = 3e5;
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
/** Bits of 1.0f: exponent 127. */
const ONE_BITS = 127 << 23;
const SHIFT = 23 - STEPS_LOG2;
const LAST = (OCTAVES << STEPS_LOG2) - 1;

/** Fills `table` (FOG_TABLE_LENGTH) with the haze and fog of a row whose rays have vertical component dy. */
export function fillFogTable(F: FogParams, dy: number, table: Float64Array): void {
  for (let n = 0; n <= LAST + 1; n++) {
    const d = Math.pow(2, n >> STEPS_LOG2) * (1 + (n & ((1 << STEPS_LOG2) - 1)) / (1 << STEPS_LOG2));
    const fogT = Math.exp(-fogDepthAlong(F, dy, d));
    const hd = d > MAX_HAZE_DISTANCE ? MAX_HAZE_DISTANCE : d;
    const o = n * NODE;
    for (let c = 0; c < 3; c++) {
      const hazeT = Math.exp(-F.haze[c]! * hd);
      table[o + c] = hazeT * fogT;
      table[o + 3 + c] = (1 - hazeT) * fogT + 0.3 * (1 - fogT);
    }
    table[o + 6] = 0.7 * (1 - fogT);
  }
}

/** Table node below distance d and the weight of the next one, into `fogAt`. */
const fogAt = { o: 0, w: 0 };

function locate(d: number): void {
  f32[0] = d;
  const bits = u32[0]! - ONE_BITS;
  if (bits <= 0) {
    fogAt.o = 0;
    fogAt.w = 0;
    return;
  }
  let n = bits >> SHIFT;
  let w = (bits & ((1 << SHIFT) - 1)) / (1 << SHIFT);
  if (n > LAST) {
    n = LAST;
    w = 1;
  }
  fogAt.o = n * NODE;
  fogAt.w = w;
}

/**
 * Blends out[0..2] (radiance of a surface at distance d) toward the haze colour
 * (hazeColour, at h[hi..hi + 2]) and the fog's, with the row's fog table.
 */
export function applyGroundFog(F: FogParams, table: Float64Array, d: number, h: Float64Array, hi: number, out: Float64Array): void {
  locate(d);
  const o = fogAt.o;
  const w = fogAt.w;
  const v = 1 - w;
  const c = table[o + 6]! * v + table[o + 6 + NODE]! * w;
  for (let k = 0; k < 3; k++) {
    const a = table[o + k]! * v + table[o + k + NODE]! * w;
    const b = table[o + 3 + k]! * v + table[o + 3 + k + NODE]! * w;
    out[k] = out[k]! * a + h[hi + k]! * b + F.fogColor[k]! * c;
  }
}

/** Mean transmittance (0..1) of haze and fog up to distance d (green channel), from the row's table. */
export function groundFogTransmittance(table: Float64Array, d: number): number {
  locate(d);
  return table[fogAt.o + 1]! * (1 - fogAt.w) + table[fogAt.o + 1 + NODE]! * fogAt.w;
}
