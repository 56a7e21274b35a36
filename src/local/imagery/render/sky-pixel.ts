/**
 * A pixel of sky: the row's smooth layers (sky-row.ts) at the pixel's column, plus stars,
 * moon, sun and planets (seen through the atmosphere), then clouds and fog in front.
 */
import { addMoon, addStars, addSun } from "../scene/sky/celestial.ts";
import { CLOUD_IN, cloudAt } from "../scene/sky/clouds.ts";
import type { PreparedScene } from "../scene/prepare-scene.ts";
import { shadePlanets } from "../scene/sky/space.ts";
import type { RowState } from "./row-state.ts";
import { ATM, AURORA, CLOUD, CLOUD_SHADE, DUST, FIELD, fillSkyRow, FORWARD, GLOW, locateSky, skyAt, STRIDE } from "./sky-row.ts";

const obj = new Float64Array(3);
const cloud = new Float64Array(3);
/**
 * The share of the sun's disk the last `shadeSky` call shows (its `sunWeight` times what
 * the clouds and fog in front let through; 0 off the disk): sun-energy.ts needs it.
 */
export const sunShare = new Float64Array(1);

/** Radiance of the sky along the current pixel's ray of `row`, into out. */
export function shadeSky(P: PreparedScene, row: RowState, out: Float64Array): void {
  const dx = row.ray[0]!;
  const dy = row.ray[1]!;
  const dz = row.ray[2]!;
  const R = row.sky;
  if (R.y !== row.y) fillSkyRow(P, R, row.y, row.sp, row.cp);
  locateSky(R, row.x);
  const v = R.values;
  const o = skyAt.o;
  const w = skyAt.w;
  const u = 1 - w;
  for (let c = 0; c < 3; c++) out[c] = v[o + ATM + c]! * u + v[o + STRIDE + ATM + c]! * w;
  const lum = out[0]! * 0.2 + out[1]! * 0.7 + out[2]! * 0.1;
  let vis = 1 - lum * P.exposure * 4;
  vis = vis < 0 ? 0 : vis;
  obj[0] = obj[1] = obj[2] = 0;
  const C = P.celestial;
  // Calls are made only where they can add something (a call with float arguments costs).
  if (vis > 0 && R.night) {
    if (C.stars > 0) addStars(C, dx, dy, dz, vis, obj);
    const dust = v[o + DUST]! * u + v[o + STRIDE + DUST]! * w;
    for (let c = 0; c < 3; c++) {
      const field = v[o + FIELD + c]! * u + v[o + STRIDE + FIELD + c]! * w;
      obj[c] = (obj[c]! + field * vis) * dust + v[o + AURORA + c]! * u + v[o + STRIDE + AURORA + c]! * w;
    }
  }
  if (C.moonVisible && dx * C.mx + dy * C.my + dz * C.mz >= C.moonReach) addMoon(C, dx, dy, dz, obj);
  let share = 0;
  if (C.sunVisible && dx * C.sx + dy * C.sy + dz * C.sz >= C.sunReach) share = addSun(C, dx, dy, dz, obj);
  if (P.space.planets.length > 0) shadePlanets(P.space, dx, dy, dz, obj);
  for (let c = 0; c < 3; c++) out[c] = out[c]! + obj[c]! * R.trans[c]!;
  if (!P.open) {
    if (dy > 0) share *= 1 - applyClouds(P, row, Infinity, out);
    if (R.fogT < 1) {
      share *= R.fogT;
      const glow = (v[o + GLOW]! * u + v[o + STRIDE + GLOW]! * w) * (1 - R.fogT);
      for (let c = 0; c < 3; c++) out[c] = out[c]! * R.fogT + P.fog.fogColor[c]! * glow;
    }
  }
  sunShare[0] = share;
}

/**
 * Puts the cloud layer (if the current pixel's ray meets it before distance t) in front of
 * out; returns the cloud's opacity (0 where none).
 */
export function applyClouds(P: PreparedScene, row: RowState, t: number, out: Float64Array): number {
  const K = P.clouds;
  if (!K.on) return 0;
  const R = row.sky;
  if (R.y !== row.y) fillSkyRow(P, R, row.y, row.sp, row.cp);
  const C = R.clouds;
  if (C.t === Infinity || C.t > t) return 0;
  locateSky(R, row.x);
  const v = R.values;
  const o = skyAt.o;
  const w = skyAt.w;
  const coarse = v[o + CLOUD]! * (1 - w) + v[o + STRIDE + CLOUD]! * w;
  // Clear sky, when the octaves left cannot lift the noise over the threshold.
  if (coarse + C.left <= K.threshold * C.norm) return 0;
  cloudIn[CLOUD_IN.maxDistance] = t;
  cloudIn[CLOUD_IN.coarse] = coarse;
  cloudIn[CLOUD_IN.coarseShade] = v[o + CLOUD_SHADE]! * (1 - w) + v[o + STRIDE + CLOUD_SHADE]! * w;
  cloudIn[CLOUD_IN.forward] = v[o + FORWARD]! * (1 - w) + v[o + STRIDE + FORWARD]! * w;
  const a = cloudAt(K, C, row.ray, cloudIn, P.sky.direct, P.sky.ambient, cloud);
  if (a <= 0) return 0;
  for (let c = 0; c < 3; c++) out[c] = out[c]! * (1 - a) + cloud[c]! * a;
  return a;
}

const cloudIn = new Float64Array(CLOUD_IN.length);
