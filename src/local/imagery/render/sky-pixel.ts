/**
 * A pixel of sky: the row's smooth layers (sky-row.ts) at the pixel's column, plus stars,
 * moon, sun and planets (seen through the atmosphere), then clouds and fog in front.
 */
import { addMoon, addStars, addSun } from "../scene/celestial.ts";
import { cloudAt } from "../scene/clouds.ts";
import type { PreparedScene } from "../scene/prepare-scene.ts";
import { shadePlanets } from "../scene/space.ts";
import type { RowState } from "./row-state.ts";
import { ATM, AURORA, CLOUD, CLOUD_SHADE, DUST, FIELD, fillSkyRow, GLOW, locateSky, skyAt, STRIDE } from "./sky-row.ts";

const obj = new Float64Array(3);
const cloud = new Float64Array(3);

/** Radiance of the sky along direction (dx, dy, dz), the current pixel of `row`, into out. */
export function shadeSky(P: PreparedScene, row: RowState, dx: number, dy: number, dz: number, out: Float64Array): void {
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
  if (C.moonVisible) addMoon(C, dx, dy, dz, obj);
  if (C.sunVisible) addSun(C, dx, dy, dz, 1, obj);
  if (P.space.planets.length > 0) shadePlanets(P.space, dx, dy, dz, obj);
  for (let c = 0; c < 3; c++) out[c] = out[c]! + obj[c]! * R.trans[c]!;
  if (!P.open) {
    applyClouds(P, row, dx, dy, dz, Infinity, out);
    if (R.fogT < 1) {
      const glow = (v[o + GLOW]! * u + v[o + STRIDE + GLOW]! * w) * (1 - R.fogT);
      for (let c = 0; c < 3; c++) out[c] = out[c]! * R.fogT + P.fog.fogColor[c]! * glow;
    }
  }
}

/** Puts the cloud layer (if the ray, the current pixel of `row`, meets it before distance t) in front of out. */
export function applyClouds(P: PreparedScene, row: RowState, dx: number, dy: number, dz: number, t: number, out: Float64Array): void {
  if (!P.clouds.on || dy <= 0) return;
  const R = row.sky;
  if (R.y !== row.y) fillSkyRow(P, R, row.y, row.sp, row.cp);
  if (R.clouds.t === Infinity || R.clouds.t > t) return;
  locateSky(R, row.x);
  const v = R.values;
  const o = skyAt.o;
  const w = skyAt.w;
  const coarse = v[o + CLOUD]! * (1 - w) + v[o + STRIDE + CLOUD]! * w;
  const coarseShade = v[o + CLOUD_SHADE]! * (1 - w) + v[o + STRIDE + CLOUD_SHADE]! * w;
  const a = cloudAt(P.clouds, R.clouds, dx, dy, dz, t, coarse, coarseShade, P.sky.direct, P.sky.ambient, cloud);
  if (a <= 0) return;
  for (let c = 0; c < 3; c++) out[c] = out[c]! * (1 - a) + cloud[c]! * a;
}
