/**
 * The per-pixel renderer for a band of rows: for each pixel's direction, the nearest of
 * the ground (from the column march), buildings and water is shaded, or else the sky with
 * everything beyond it; clouds in front and fog are applied, and the linear radiance plus
 * its tone-mapped display value are written to the task's shared buffers.
 */
import { addMoon, addStars, addSun } from "../scene/celestial.ts";
import { cityHit } from "../scene/city.ts";
import { shadeBuilding } from "../scene/city-shading.ts";
import { cloudAlong } from "../scene/clouds.ts";
import { elevationOfV } from "../../../api/panorama/panorama-directions.ts";
import { columnTrig } from "./column-trig.ts";
import { applyGroundFog, FOG_TABLE_LENGTH, fillFogTable, groundFogTransmittance } from "../scene/fog.ts";
import type { PreparedScene } from "../scene/prepare-scene.ts";
import type { TaskViews } from "../pipeline/render-buffers.ts";
import { shadePlanets } from "../scene/space.ts";
import { ATM, AURORA, createSkyRow, DUST, FIELD, fillSkyRow, GLOW, locateSky, skyAt, type SkyRow, STRIDE } from "./sky-row.ts";
import { shadeGround } from "../scene/surface.ts";
import { terrainHeight, terrainOctaves, tg } from "../scene/terrain.ts";
import { dither, toneMapPixel } from "./tone-map.ts";
import { waterBody, waterFresnel, waveNormal } from "../scene/water.ts";

const dir = new Float64Array(3);
const col = new Float64Array(3);
const obj = new Float64Array(3);
const trans = new Float64Array(3);
const cloud = new Float64Array(3);
const nrm = new Float64Array(3);
const disp = new Float64Array(3);

/** The row being rendered: its sky layers and its fog table, each filled on first use. */
interface RowState {
  y: number;
  x: number;
  sp: number;
  cp: number;
  sky: SkyRow;
  fogRow: number;
  fog: Float64Array;
}
let row: RowState = { y: -1, x: 0, sp: 0, cp: 1, sky: createSkyRow(1), fogRow: -1, fog: new Float64Array(FOG_TABLE_LENGTH) };

/** Optional per-pixel adjustment of radiance before tone mapping (init-image guidance). */
export type RadianceGuide = (x: number, y: number, rgb: Float64Array) => void;

/** Whether a direction needs rendering at all (an edit renders only near its region). */
export type ActiveRegion = (dx: number, dy: number, dz: number) => boolean;

export function renderRows(P: PreparedScene, v: TaskViews, y0: number, y1: number, guide?: RadianceGuide, active?: ActiveRegion): void {
  const W = P.width;
  const H = P.height;
  const { sin, cos } = columnTrig(W);
  if (row.sky.width !== W) row = { ...row, sky: createSkyRow(W) };
  row.sky.y = -1;
  row.fogRow = -1;
  for (let y = y0; y < y1; y++) {
    const phi = elevationOfV((y + 0.5) / H);
    const cp = Math.cos(phi);
    const sp = Math.sin(phi);
    row.y = y;
    row.sp = sp;
    row.cp = cp;
    for (let x = 0; x < W; x++) {
      row.x = x;
      dir[0] = sin[x]! * cp;
      dir[1] = sp;
      dir[2] = -cos[x]! * cp;
      const i = y * W + x;
      if (active && !active(dir[0]!, dir[1]!, dir[2]!)) continue;
      v.aux[i] = shadePixel(P, dir[0]!, dir[1]!, dir[2]!, v.hit[i]!, col);
      if (guide) guide(x, y, col);
      const o = i * 3;
      const d = dither(x, y);
      toneMapPixel(col[0]!, col[1]!, col[2]!, P.exposure, disp);
      for (let c = 0; c < 3; c++) {
        v.radiance[o + c] = col[c]!;
        const s = disp[c]! + d;
        v.display[o + c] = s < 0 ? 0 : s > 255 ? 255 : s + 0.5;
      }
    }
  }
}

/** Radiance along a direction into out; returns the water reflection weight (0 if none). */
export function shadePixel(P: PreparedScene, dx: number, dy: number, dz: number, groundT: number, out: Float64Array): number {
  if (P.open) {
    shadeSky(P, dx, dy, dz, out);
    return 0;
  }
  let t = groundT;
  const cityT = P.city.on ? cityHit(P.city, P.camY, dx, dy, dz, t < 8000 ? t : 8000) : Infinity;
  let reflect = 0;
  if (cityT < t) {
    t = cityT;
    shadeBuilding(P.city, P.sky, P.cityLook, dx * t, P.camY + dy * t, dz * t, t, dx, dy, dz, out);
  } else if (t === Infinity) {
    shadeSky(P, dx, dy, dz, out);
  } else {
    const px = dx * t;
    const py = P.camY + dy * t;
    const pz = dz * t;
    const footprint = t * P.pixelAngle;
    if (P.water.on && py <= P.water.level + 0.05) {
      waveNormal(P.water, px, pz, footprint, nrm);
      const cosT = -(dx * nrm[0]! + dy * nrm[1]! + dz * nrm[2]!);
      const f = waterFresnel(cosT);
      waterBody(P.water, P.sky.direct, P.sky.ambient, P.sky.ly > 0 ? P.sky.ly : 0, out);
      for (let c = 0; c < 3; c++) out[c] = out[c]! * (1 - f);
      reflect = f * groundFogTransmittance(fogTable(P), t);
    } else {
      terrainHeight(P.terrain, px, pz, terrainOctaves(P.terrain, t, P.pixelAngle) + 1);
      const gx = tg[0]!;
      const gz = tg[1]!;
      const inv = 1 / Math.sqrt(gx * gx + 1 + gz * gz);
      shadeGround(P.surface, P.terrain, P.sky, P.clouds, px, py, pz, -gx * inv, inv, -gz * inv, footprint, out);
    }
    applyClouds(P, dx, dy, dz, t, out);
  }
  if (t !== Infinity) applyGroundFog(P.fog, fogTable(P), t, P.hazeByColumn, row.x * 3, out);
  return reflect;
}

/** The current row's fog table. */
function fogTable(P: PreparedScene): Float64Array {
  if (row.fogRow !== row.y) {
    fillFogTable(P.fog, row.sp, row.fog);
    row.fogRow = row.y;
  }
  return row.fog;
}

function shadeSky(P: PreparedScene, dx: number, dy: number, dz: number, out: Float64Array): void {
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
  if (vis > 0) {
    addStars(P.celestial, dx, dy, dz, vis, obj);
    const dust = v[o + DUST]! * u + v[o + STRIDE + DUST]! * w;
    for (let c = 0; c < 3; c++) {
      const field = v[o + FIELD + c]! * u + v[o + STRIDE + FIELD + c]! * w;
      obj[c] = (obj[c]! + field * vis) * dust + v[o + AURORA + c]! * u + v[o + STRIDE + AURORA + c]! * w;
    }
  }
  addMoon(P.celestial, dx, dy, dz, obj);
  addSun(P.celestial, dx, dy, dz, 1, obj);
  if (P.space.planets.length > 0) shadePlanets(P.space, dx, dy, dz, obj);
  for (let c = 0; c < 3; c++) out[c] = out[c]! + obj[c]! * R.trans[c]!;
  if (!P.open) {
    applyClouds(P, dx, dy, dz, Infinity, out);
    if (R.fogT < 1) {
      const glow = (v[o + GLOW]! * u + v[o + STRIDE + GLOW]! * w) * (1 - R.fogT);
      for (let c = 0; c < 3; c++) out[c] = out[c]! * R.fogT + P.fog.fogColor[c]! * glow;
    }
  }
}

function applyClouds(P: PreparedScene, dx: number, dy: number, dz: number, t: number, out: Float64Array): void {
  if (!P.clouds.on || dy <= 0) return;
  const a = cloudAlong(P.clouds, P.camY, dx, dy, dz, t, P.sky.direct, P.sky.ambient, cloud);
  if (a <= 0) return;
  for (let c = 0; c < 3; c++) out[c] = out[c]! * (1 - a) + cloud[c]! * a;
}
