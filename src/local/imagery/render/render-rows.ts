/**
 * The per-pixel renderer for a band of rows: for each pixel's direction, the nearest of
 * the ground (from the column march), buildings and water is shaded, or else the sky with
 * everything beyond it; clouds in front and fog are applied, and the linear radiance plus
 * its tone-mapped display value are written to the task's shared buffers (and the water's
 * reflection weight or the sky's share of the sun disk to their bands).
 */
import { cityHit } from "../scene/city/city.ts";
import { shadeBuilding } from "../scene/city/city-shading.ts";
import { elevationOfV } from "../../../api/panorama/panorama-directions.ts";
import { columnTrig } from "./column-trig.ts";
import { applyGroundFog, groundFogTransmittance } from "../scene/fog.ts";
import { shadeLand } from "./land-pixel.ts";
import { isWholeRow, nadirRadiance, nadirRow, planNadirRow } from "./nadir-grid.ts";
import type { PreparedScene } from "../scene/prepare-scene.ts";
import { bandIndex, hitAt, type RowBand, type TaskViews } from "../pipeline/render-buffers.ts";
import { writeRgbe } from "../formats/rgbe-pixel.ts";
import { fogTable, type RowState, rowState } from "./row-state.ts";
import { applyClouds, shadeSky, sunShare } from "./sky-pixel.ts";
import { depthOutlineRow } from "./looks/stylize.ts";
import { groundCoverage, skylineDistance, type SkylineRows, skylineRows } from "./skyline-coverage.ts";
import { writeDisplay } from "./looks/tone-map.ts";
import { waterBody, waterFresnel, waveNormal } from "../scene/water.ts";

const col = new Float64Array(3);
const other = new Float64Array(3);
const nrm = new Float64Array(3);
/** What the last shadePixel call saw: SKY, LAND, or something else (water, a building). */
const surface = new Uint8Array(1);
const SKY = 0;
const LAND = 1;
const ELSE = 2;
/** Water reflection weight of the last shadePixel call (0 if none). */
const reflection = new Float64Array(1);

/** Optional per-pixel adjustment of radiance before tone mapping (init-image guidance). */
export type RadianceGuide = (x: number, y: number, rgb: Float64Array) => void;

/** Whether a direction needs rendering at all (an edit renders only near its region). */
export type ActiveRegion = (dx: number, dy: number, dz: number) => boolean;

export function renderRows(P: PreparedScene, v: TaskViews, y0: number, y1: number, guide?: RadianceGuide, active?: ActiveRegion): void {
  const W = P.width;
  const H = P.height;
  const { sin, cos } = columnTrig(W);
  const row = rowState(W);
  const ray = row.ray;
  const { hit, radiance, display } = v;
  const skyline = P.open ? null : skylineRows(v.skyline, W, H, (tan, distance) => levelHorizon(P, tan, distance));
  for (let y = y0; y < y1; y++) {
    const phi = elevationOfV((y + 0.5) / H);
    const cp = Math.cos(phi);
    const sp = Math.sin(phi);
    row.y = y;
    row.sp = sp;
    row.cp = cp;
    if (v.outline.length > 0) depthOutlineRow(hit, W, H, y, v.outline);
    planNadirRow(P, y, row.nadirPlan, !active && !guide);
    if (isWholeRow(row.nadirPlan)) {
      nadirRow(P, row, v);
      continue;
    }
    ray[1] = sp;
    for (let x = 0; x < W; x++) {
      row.x = x;
      ray[0] = sin[x]! * cp;
      ray[2] = -cos[x]! * cp;
      const i = y * W + x;
      if (active && !active(ray[0], sp, ray[2])) continue;
      shadePixel(P, row, hitAt(hit, i, y), col);
      if (skyline !== null && skyline.on && y >= skyline.lo[x]! && y <= skyline.hi[x]! && surface[0] !== ELSE)
        blendSkyline(P, row, skyline, col);
      // Water keeps its reflection weight; the sky, its share of the sun's disk (sun-energy.ts).
      if (reflection[0]! > 0) keep(v.reflection, W, x, y, reflection[0]!);
      else if (sunShare[0]! > 0) keep(v.sunShare, W, x, y, sunShare[0]!);
      if (guide) guide(x, y, col);
      writeRgbe(col[0]!, col[1]!, col[2]!, radiance, i * 4);
      writeDisplay(col, 0, P, x, y, display, i * 3);
    }
  }
}

/** Whether a column's skyline is the level line of the sea or of the far plain, not the land's. */
function levelHorizon(P: PreparedScene, tan: number, distance: number): boolean {
  if (distance >= P.terrain.maxDistance) return true;
  const height = P.camY + (tan * distance) / Math.sqrt(1 + tan * tan);
  return P.water.on && height <= P.water.level + 0.05;
}

/**
 * The current pixel (shaded as sky or land into out) as the skyline covers it: blended
 * with the other side's radiance by its ground coverage (skyline-coverage.ts). The sun's
 * disk and the glow round it are left as the pixel centres draw them: the HDR sun that
 * lights the scene is found from exactly those pixels, a disk cut by a ridge from the
 * rows it keeps whole (src/scene/analysis), and a few pixels there show no stair.
 */
function blendSkyline(P: PreparedScene, row: RowState, S: SkylineRows, out: Float64Array): void {
  const C = P.celestial;
  if (C.sunVisible && row.ray[0]! * C.sx + row.ray[1]! * C.sy + row.ray[2]! * C.sz > NEAR_SUN) return;
  const c = groundCoverage(S, row.x, row.y);
  if (surface[0] === SKY) {
    if (c <= 0 || sunShare[0]! > 0) return;
    shadeLandSeen(P, row, skylineDistance(S, row.x), other);
    for (let k = 0; k < 3; k++) out[k] = out[k]! * (1 - c) + other[k]! * c;
  } else {
    if (c >= 1) return;
    shadeSky(P, row, other);
    if (sunShare[0]! > 0) {
      sunShare[0] = 0;
      return;
    }
    for (let k = 0; k < 3; k++) out[k] = out[k]! * c + other[k]! * (1 - c);
  }
}

/** Cosine of the angle (5 degrees) within which the skyline is left alone round the sun. */
const NEAR_SUN = Math.cos((5 * Math.PI) / 180);

/** Land at distance t along the current pixel's ray, with the clouds and fog in front. */
function shadeLandSeen(P: PreparedScene, row: RowState, t: number, out: Float64Array): void {
  shadeLand(P, row.ray, t, out);
  if (row.ray[1]! > 0) applyClouds(P, row, t, out);
  applyGroundFog(P.fog, fogTable(P, row), t, P.hazeByColumn, row.x * 3, out);
}

/** Stores `value` for pixel (x, y) in `band` when the band covers its row. */
function keep(band: RowBand<Float32Array>, width: number, x: number, y: number, value: number): void {
  const j = bandIndex(band, width, x, y);
  if (j >= 0) band.data[j] = value;
}

/**
 * Radiance along the current pixel's ray (ground hit distance groundT) into out; the water
 * reflection weight into `reflection`.
 */
function shadePixel(P: PreparedScene, row: RowState, groundT: number, out: Float64Array): void {
  reflection[0] = 0;
  sunShare[0] = 0;
  surface[0] = SKY;
  if (P.open) {
    shadeSky(P, row, out);
    return;
  }
  const ray = row.ray;
  const dx = ray[0]!;
  const dy = ray[1]!;
  const dz = ray[2]!;
  let t = groundT;
  const cityT = P.city.on ? cityHit(P.city, P.camY, dx, dy, dz, t < 8000 ? t : 8000) : Infinity;
  surface[0] = ELSE;
  if (cityT < t) {
    t = cityT;
    shadeBuilding(P.city, P.sky, P.cityLook, dx * t, P.camY + dy * t, dz * t, t, dx, dy, dz, out);
  } else if (t === Infinity) {
    surface[0] = SKY;
    shadeSky(P, row, out);
    return;
  } else {
    if (P.water.on && P.camY + dy * t <= P.water.level + 0.05) {
      waveNormal(P.water, dx * t, dz * t, t * P.pixelAngle, nrm);
      const cosT = -(dx * nrm[0]! + dy * nrm[1]! + dz * nrm[2]!);
      const f = waterFresnel(cosT);
      waterBody(P.water, P.sky.direct, P.sky.ambient, P.sky.ly > 0 ? P.sky.ly : 0, out);
      for (let c = 0; c < 3; c++) out[c] = out[c]! * (1 - f);
      reflection[0] = f * groundFogTransmittance(fogTable(P, row), t);
    } else if (row.nadirPlan.step > 0) nadirRadiance(P, row, t, out);
    else {
      surface[0] = LAND;
      shadeLand(P, ray, t, out);
    }
    if (dy > 0) applyClouds(P, row, t, out);
  }
  applyGroundFog(P.fog, fogTable(P, row), t, P.hazeByColumn, row.x * 3, out);
}
