/**
 * The relief shapes of the scene's ground, before the camera's summit, valley and city
 * shaping of terrain.ts: eroded mountains, soft hills, wind-driven dunes (two crossing
 * systems with sharp crests), a terraced canyon that opens around the camera, and a
 * near-flat plain or sea bed. Each reads the point from `tp` and writes its gradient and
 * height into `tg`: these run for every step of every column's march and every pixel of
 * ground, and a call with float arguments (or a float result) allocates a heap number for
 * each, so the terrain's functions pass floats in memory.
 */
import { value2 } from "../../math/noise.ts";
import { smoothstep, smoothstepSlope } from "../../math/scalar.ts";
import type { TerrainParams } from "./terrain.ts";
import { fg, fractalGrad } from "./terrain-noise.ts";

export const RELIEF = { none: 0, flat: 1, hills: 2, mountains: 3, dunes: 4, canyon: 5 } as const;

/** Gradient (d/dx, d/dz) and height of the last relief (and terrainHeight) call. */
export const tg = new Float64Array(3);
/** The point being evaluated: x, z, octaves, and its distance from the camera's axis. */
export const tp = new Float64Array(4);

/** Sets the point to evaluate (small enough to be inlined). */
export function setTerrainPoint(x: number, z: number, octaves: number): void {
  tp[0] = x;
  tp[1] = z;
  tp[2] = octaves;
  tp[3] = Math.sqrt(x * x + z * z) + 1e-6;
}

/** The relief at tp, into tg. */
export function relief(T: TerrainParams): void {
  const x = tp[0]!;
  const z = tp[1]!;
  const octaves = tp[2]!;
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
      tg[2] = T.floor + k * sp * (0.6 + sp);
      return;
    }
    case RELIEF.hills: {
      const v = fractalGrad(x, z, T.invL, T.ox, T.oz, octaves, false);
      tg[0] = T.amp * 1.4 * fg[0]!;
      tg[1] = T.amp * 1.4 * fg[1]!;
      tg[2] = T.floor + T.amp * (0.45 + 1.4 * v);
      return;
    }
    case RELIEF.dunes:
      dunes(T);
      return;
    case RELIEF.canyon:
      canyon(T);
      return;
    default: {
      const v = fractalGrad(x, z, 1 / 90, T.ox, T.oz, Math.min(octaves, 6), false);
      tg[0] = 3 * fg[0]!;
      tg[1] = 3 * fg[1]!;
      tg[2] = T.floor + 3 * v;
    }
  }
}

function dunes(T: TerrainParams): void {
  const x = tp[0]!;
  const z = tp[1]!;
  const octaves = tp[2]!;
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
  tg[2] = h;
}

function canyon(T: TerrainParams): void {
  const x = tp[0]!;
  const z = tp[1]!;
  const octaves = tp[2]!;
  // The canyon opens around the camera; mesas and far rims rise beyond.
  const r = tp[3]!;
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
  tg[2] = T.floor + T.amp * terrace + 6 * detail;
}
