/**
 * The relief shapes of the scene's ground, before the camera's summit, valley and city
 * shaping of terrain.ts: eroded mountains, soft hills, wind-driven dunes (two crossing
 * systems with sharp crests), a terraced canyon that opens around the camera, and a
 * near-flat plain or sea bed. Each writes its gradient into `tg`.
 */
import { value2 } from "../math/noise.ts";
import { smoothstep, smoothstepSlope } from "../math/scalar.ts";
import type { TerrainParams } from "./terrain.ts";
import { fg, fractalGrad } from "./terrain-noise.ts";

export const RELIEF = { none: 0, flat: 1, hills: 2, mountains: 3, dunes: 4, canyon: 5 } as const;

/** Gradient (d/dx, d/dz) of the last relief (and terrainHeight) call. */
export const tg = new Float64Array(2);

export function relief(T: TerrainParams, x: number, z: number, octaves: number): number {
  switch (T.kind) {
    case RELIEF.mountains: {
      const v = fractalGrad(x, z, T.invL, T.ox, T.oz, octaves, true);
      // Soft max(v + 0.12, 0) gives broad flat valleys between the peaks; the quadratic
      // term makes the highest peaks stand out.
      const s = v + 0.12;
      const q = Math.sqrt(s * s + 0.004);
      const sp = 0.5 * (s + q);
      const dsp = 0.5 * (1 + s / q);
      const k = T.amp * 2.2;
      const dh = k * dsp * (0.6 + 2 * sp);
      tg[0] = dh * fg[0]!;
      tg[1] = dh * fg[1]!;
      return T.floor + k * sp * (0.6 + sp);
    }
    case RELIEF.hills: {
      const v = fractalGrad(x, z, T.invL, T.ox, T.oz, octaves, false);
      tg[0] = T.amp * 1.4 * fg[0]!;
      tg[1] = T.amp * 1.4 * fg[1]!;
      return T.floor + T.amp * (0.45 + 1.4 * v);
    }
    case RELIEF.dunes:
      return dunes(T, x, z, octaves);
    case RELIEF.canyon:
      return canyon(T, x, z, octaves);
    default: {
      const v = fractalGrad(x, z, 1 / 90, T.ox, T.oz, Math.min(octaves, 6), false);
      tg[0] = 3 * fg[0]!;
      tg[1] = 3 * fg[1]!;
      return T.floor + 3 * v;
    }
  }
}

function dunes(T: TerrainParams, x: number, z: number, octaves: number): number {
  const big = fractalGrad(x, z, 1 / 2500, T.ox, T.oz, Math.min(octaves, 4), false);
  let gx = T.amp * 1.2 * fg[0]!;
  let gz = T.amp * 1.2 * fg[1]!;
  let h = T.amp * (0.6 + 1.2 * big);
  const warp = 45 * value2(x / 380 + T.ox, z / 380);
  const mod = 0.55 + 0.45 * value2(x / 1100 - T.oz, z / 1100);
  for (let k = 0; k < 2; k++) {
    const ang = k === 0 ? 0.5 : 1.4;
    const lambda = k === 0 ? 140 : 330;
    const a = T.amp * (k === 0 ? 0.55 : 0.4) * mod;
    const cs = Math.cos(ang);
    const sn = Math.sin(ang);
    const t = (x * cs + z * sn + warp * (k + 1)) / lambda;
    const f = t - Math.floor(t);
    // Gentle windward slope up to a sharp crest, then the steep slip face.
    const p = f < 0.78 ? f / 0.78 : (1 - f) / 0.22;
    const dp = (f < 0.78 ? 1 / 0.78 : -1 / 0.22) / lambda;
    const shaped = p * p * (1.5 - 0.5 * p);
    const dshaped = (3 * p - 1.5 * p * p) * dp;
    h += a * shaped;
    gx += a * dshaped * cs;
    gz += a * dshaped * sn;
  }
  tg[0] = gx;
  tg[1] = gz;
  return h;
}

function canyon(T: TerrainParams, x: number, z: number, octaves: number): number {
  // The canyon opens around the camera; mesas and far rims rise beyond.
  const r = Math.sqrt(x * x + z * z) + 1e-6;
  const open = 0.7 * (1 - smoothstep(300, 2200, r));
  const dOpen = -0.7 * smoothstepSlope(300, 2200, r);
  const v = fractalGrad(x, z, T.invL, T.ox, T.oz, Math.min(octaves, 7), false) - open;
  const vx = fg[0]! - (dOpen * x) / r;
  const vz = fg[1]! - (dOpen * z) / r;
  // m: 1 on mesa tops, 0 on the canyon floor; three terraced steps between.
  const a = -0.1;
  const b = 0.08;
  const m = smoothstep(a, b, v);
  const dm = smoothstepSlope(a, b, v);
  const steps = m * 3;
  const i = Math.floor(steps);
  const f = steps - i;
  const riser = smoothstep(0.55, 1, f);
  const terrace = (Math.min(i, 3) + (i >= 3 ? 0 : riser)) / 3;
  const dterrace = i >= 3 ? 0 : smoothstepSlope(0.55, 1, f) * 3 * dm;
  const detail = fractalGrad(x, z, 1 / 120, T.oz, T.ox, Math.max(1, octaves - 4), true);
  tg[0] = T.amp * dterrace * vx + 6 * fg[0]!;
  tg[1] = T.amp * dterrace * vz + 6 * fg[1]!;
  return T.floor + T.amp * terrace + 6 * detail;
}
