/**
 * The flat spot the camera stands on, shaded on a coarse screen grid. Every ray steeper
 * than atan(eye / r0) lands on that disc (terrain-march.ts), so it fills the bottom rows
 * of the panorama, a third of the image, with pixels a millimetre or two wide, while its
 * texture (the fine albedo and bump noise of ground-texture.ts, halving their lattice
 * from 2 m each octave) is mostly far coarser. Samples are taken at every STEP-th pixel of
 * every STEP-th row, and a pixel reads the four around it:
 *
 *   whole      where even the finest octave spans WHOLE_SAMPLES_PER_LATTICE grid steps,
 *              the final radiance (fog included) and its display value are interpolated,
 *              and a pixel costs its dither only (nadirRow);
 *   texture    elsewhere the octaves that span SAMPLES_PER_LATTICE grid steps (with the
 *              light let through past terrain and clouds, which is smooth) are
 *              interpolated, and the pixel adds its finer octaves and shades itself.
 *
 * Grid steps are measured along the foreshortened direction (the larger footprint), and
 * a grid is only read between two sample rows that both lie on the disc. In texture rows,
 * fog, guides and tone mapping still run per pixel; rows with a guide or an edit region
 * use no whole grid.
 */
import { elevationOfV } from "../../../api/panorama/panorama-directions.ts";
import { patches } from "../scene/ground/ground-albedo.ts";
import {
  addFineTexture,
  ALBEDO_OCTAVES,
  BUMP_OCTAVES,
  coarseFineTexture,
  NX,
  NY,
  NZ,
  PATCHES,
  POINT_LENGTH,
  PX,
  PY,
  PZ,
  setFootprint,
  TEXTURE_LENGTH,
  VALUE,
} from "../scene/ground/ground-texture.ts";
import type { PreparedScene } from "../scene/prepare-scene.ts";
import { groundShadows, shadeGround } from "../scene/ground/surface.ts";
import { applyGroundFog, FOG_TABLE_LENGTH, fillFogTable } from "../scene/fog.ts";
import type { TaskViews } from "../pipeline/render-buffers.ts";
import { columnTrig } from "./column-trig.ts";
import { dither, displayValues } from "./looks/tone-map.ts";
import { shadeLand } from "./land-pixel.ts";
import { writeRgbe } from "../formats/rgbe-pixel.ts";
import type { RowState } from "./row-state.ts";

const SAMPLES_PER_LATTICE = 6;
/**
 * The same bound for the finest octave when whole rows are interpolated. That octave
 * carries under a tenth of the albedo texture's contrast (six or more octaves with gain
 * 0.8 come before it) and a few percent of the bump's (gain 0.5), and linear
 * interpolation at 4 samples a lattice keeps about 80% of its own: a loss nobody sees on
 * ground millimetres wide, where 6 samples would shade Model 4's nadir pixel by pixel.
 */
const WHOLE_SAMPLES_PER_LATTICE = 4;
/** Grid steps tried for whole-radiance rows, coarsest first; texture rows use the first. */
const STEPS = [4, 2];
/** A texture grid is worth its samples from this many coarse octaves on. */
const MIN_CUT = 2;

/** How a row is shaded: step 0 = every pixel itself; cut -1 = whole radiance, else octaves from the grid. */
export interface NadirPlan {
  step: number;
  albedoCut: number;
  bumpCut: number;
}

export function createNadirPlan(): NadirPlan {
  return { step: 0, albedoCut: -1, bumpCut: -1 };
}

interface CoarseRow {
  /** Image row of the samples (-1: empty). */
  y: number;
  values: Float64Array;
}

/** Coarse rows of the current scene: two per kind of grid (above and below the row being drawn). */
export interface NadirCache {
  scene: PreparedScene | null;
  rows: Map<number, [CoarseRow, CoarseRow]>;
}

export function createNadirCache(): NadirCache {
  return { scene: null, rows: new Map() };
}

/** Plans row y of the panorama into `plan`; `whole`: whole rows may be interpolated. */
export function planNadirRow(P: PreparedScene, y: number, plan: NadirPlan, whole: boolean): void {
  plan.step = 0;
  plan.albedoCut = -1;
  plan.bumpCut = -1;
  const T = P.terrain;
  if (P.open || P.look.celBands > 0) return;
  if (P.water.on && T.ground <= P.water.level + 0.05) return;
  for (const step of whole ? STEPS : []) {
    const spacing = gridSpacing(P, y, step);
    if (spacing <= 0) continue;
    setFootprint(P.surface, planned, footprintAbove(P, y, step));
    if (spacing * WHOLE_SAMPLES_PER_LATTICE <= Math.pow(2, 2 - planned[ALBEDO_OCTAVES]!)) {
      plan.step = step;
      return;
    }
  }
  const step = STEPS[0]!;
  const spacing = gridSpacing(P, y, step);
  if (spacing <= 0) return;
  setFootprint(P.surface, planned, footprintAbove(P, y, step));
  // Octaves i whose lattice 2^(1 - i) spans SAMPLES_PER_LATTICE grid steps.
  const cut = Math.floor(1 - Math.log2(spacing * SAMPLES_PER_LATTICE)) + 1;
  const albedoCut = Math.min(cut, Math.floor(planned[ALBEDO_OCTAVES]!));
  if (albedoCut < MIN_CUT) return;
  plan.step = step;
  plan.albedoCut = albedoCut;
  plan.bumpCut = Math.max(0, Math.min(cut, Math.floor(planned[BUMP_OCTAVES]!)));
}

/** The grid row at or above y for a step. */
function rowAbove(y: number, step: number): number {
  return Math.floor(y / step) * step;
}

/** Footprint (m per pixel) on the disc at the grid row above y (the larger of the two). */
function footprintAbove(P: PreparedScene, y: number, step: number): number {
  const s = -Math.sin(elevationOfV((rowAbove(y, step) + 0.5) / P.height));
  return ((P.camY - P.terrain.ground) / s) * P.pixelAngle;
}

/**
 * Grid spacing (metres, along the ray's foreshortened direction) of a step around row y,
 * or 0 if that grid cannot serve the row (a sample row off the disc or the image).
 */
function gridSpacing(P: PreparedScene, y: number, step: number): number {
  const above = rowAbove(y, step);
  if (P.width % step !== 0 || above + step > P.height - 1) return 0;
  const T = P.terrain;
  const eye = T.camY - T.ground;
  const phi = elevationOfV((above + 0.5) / P.height);
  // The march's test for the flat top; the row below is steeper, so on it too.
  if (!(Math.tan(phi) < -eye / T.r0)) return 0;
  const s = -Math.sin(phi);
  return (step * (eye / s) * P.pixelAngle) / s;
}

const texture = new Float64Array(TEXTURE_LENGTH);
/** The point being shaded; its footprint is the row's (set once a row). */
const point = new Float64Array(POINT_LENGTH);
// Which row and render `point` holds the footprint of, per worker thread (see row-state.ts).
let pointRow = -1;
let pointScene: PreparedScene | null = null;
/** Footprints of the rows planned. */
const planned = new Float64Array(POINT_LENGTH);
/** A whole row pixel's radiance before it is stored. */
const rgb = new Float64Array(3);

/** Whether a row is interpolated whole (nadirRow) rather than pixel by pixel. */
export function isWholeRow(plan: NadirPlan): boolean {
  return plan.step > 0 && plan.albedoCut < 0;
}

/**
 * Writes row y (a whole row: isWholeRow) of the task's radiance and display from its grid:
 * the final radiance and display values interpolated, the display dithered per pixel.
 */
export function nadirRow(P: PreparedScene, row: RowState, v: TaskViews): void {
  const step = row.nadirPlan.step;
  const y = row.y;
  const above = Math.floor(y / step) * step;
  const a = coarseRow(P, row, above, WHOLE).values;
  const b = coarseRow(P, row, above + step, WHOLE).values;
  const ty = (y - above) / step;
  const W = P.width;
  const { radiance, display } = v;
  for (let x = 0; x < W; x++) {
    const s = x / step;
    const k = s | 0;
    const tx = s - k;
    const o = k * WHOLE;
    const i = y * W + x;
    const d = dither(x, y) + 0.5;
    for (let c = 0; c < 3; c++) {
      const top = a[o + c]! + (a[o + WHOLE + c]! - a[o + c]!) * tx;
      const bottom = b[o + c]! + (b[o + WHOLE + c]! - b[o + c]!) * tx;
      rgb[c] = top + (bottom - top) * ty;
      const shownTop = a[o + 3 + c]! + (a[o + WHOLE + 3 + c]! - a[o + 3 + c]!) * tx;
      const shownBottom = b[o + 3 + c]! + (b[o + WHOLE + 3 + c]! - b[o + 3 + c]!) * tx;
      const shown = shownTop + (shownBottom - shownTop) * ty + d;
      display[i * 3 + c] = shown < 0.5 ? 0 : shown > 255 ? 255 : shown;
    }
    writeRgbe(rgb[0]!, rgb[1]!, rgb[2]!, radiance, i * 4);
  }
}

/** Radiance (before fog) of the current pixel of a texture row (flat-top distance t), from the row's grid. */
export function nadirRadiance(P: PreparedScene, row: RowState, t: number, out: Float64Array): void {
  if (pointRow !== row.y || pointScene !== P) startTextureRow(P, row, t);
  const step = row.nadirPlan.step;
  const stride = TEXTURE_LENGTH;
  const a = gridAbove;
  const b = gridBelow;
  const s = row.x / step;
  const k = Math.floor(s);
  const tx = s - k;
  const ty = gridTy;
  const o = k * stride;
  // VALUE, the last of the texture's numbers, is the shading's to write.
  for (let c = 0; c < VALUE; c++) {
    const top = a[o + c]! + (a[o + stride + c]! - a[o + c]!) * tx;
    const bottom = b[o + c]! + (b[o + stride + c]! - b[o + c]!) * tx;
    texture[c] = top + (bottom - top) * ty;
  }
  point[PX] = row.ray[0]! * t;
  point[PY] = P.camY + row.ray[1]! * t;
  point[PZ] = row.ray[2]! * t;
  addFineTexture(point, row.nadirPlan.albedoCut, row.nadirPlan.bumpCut, texture);
  shadeGround(P.surface, P.terrain, P.sky, P.clouds, point, texture, out);
}

/** The grid rows around the texture row being drawn, and its place between them. */
let gridAbove: Float64Array = new Float64Array(0);
let gridBelow: Float64Array = new Float64Array(0);
let gridTy = 0;

/**
 * What a texture row's pixels share, found at its first pixel: the two grid rows around
 * it (which stay in the cache until a later row moves past them) and, the flat top
 * having one distance along the row, one footprint and one normal.
 */
function startTextureRow(P: PreparedScene, row: RowState, t: number): void {
  const step = row.nadirPlan.step;
  const above = Math.floor(row.y / step) * step;
  gridAbove = coarseRow(P, row, above, TEXTURE_LENGTH).values;
  gridBelow = coarseRow(P, row, above + step, TEXTURE_LENGTH).values;
  gridTy = (row.y - above) / step;
  setFootprint(P.surface, point, t * P.pixelAngle);
  point[NX] = 0;
  point[NY] = 1;
  point[NZ] = 0;
  pointRow = row.y;
  pointScene = P;
}

function coarseRow(P: PreparedScene, row: RowState, y: number, stride: number): CoarseRow {
  const cache = row.nadir;
  if (cache.scene !== P) {
    cache.scene = P;
    cache.rows.clear();
  }
  const plan = row.nadirPlan;
  const key = plan.step * 4096 + (plan.albedoCut + 1) * 64 + plan.bumpCut + 1;
  const n = P.width / plan.step;
  let pair = cache.rows.get(key);
  if (!pair) {
    pair = [
      { y: -1, values: new Float64Array((n + 1) * stride) },
      { y: -1, values: new Float64Array((n + 1) * stride) },
    ];
    cache.rows.set(key, pair);
  }
  if (pair[0].y === y) return pair[0];
  if (pair[1].y === y) return pair[1];
  // Replace the row further from y (rows are drawn top to bottom, mostly).
  const r = Math.abs(pair[0].y - y) > Math.abs(pair[1].y - y) ? pair[0] : pair[1];
  fillCoarseRow(P, plan, r, y, n, stride);
  return r;
}

/** Values a sample of a whole row holds: the final radiance (3), its display values (3). */
const WHOLE = 6;
const sample = new Float64Array(Math.max(TEXTURE_LENGTH, WHOLE));
const sampleRay = new Float64Array(3);
/** The fog table of the sample row being filled. */
const fog = new Float64Array(FOG_TABLE_LENGTH);

function fillCoarseRow(P: PreparedScene, plan: NadirPlan, r: CoarseRow, y: number, n: number, stride: number): void {
  r.y = y;
  const { sin, cos } = columnTrig(P.width);
  const phi = elevationOfV((y + 0.5) / P.height);
  const cp = Math.cos(phi);
  const sp = Math.sin(phi);
  const eye = P.camY - P.terrain.ground;
  // The march's exact hit of the flat top.
  const t = eye / -Math.tan(phi) / cp;
  const footprint = t * P.pixelAngle;
  if (stride === WHOLE) fillFogTable(P.fog, sp, fog);
  for (let k = 0; k < n; k++) {
    const x = k * plan.step;
    const dx = sin[x]! * cp;
    const dz = -cos[x]! * cp;
    if (stride === WHOLE) {
      sampleRay[0] = dx;
      sampleRay[1] = sp;
      sampleRay[2] = dz;
      shadeLand(P, sampleRay, t, sample);
      applyGroundFog(P.fog, fog, t, P.hazeByColumn, x * 3, sample);
      displayValues(sample, 0, P, sample, 3);
    } else {
      const px = dx * t;
      const pz = dz * t;
      coarseFineTexture(px, pz, plan.albedoCut, plan.bumpCut, sample);
      sample[PATCHES] = patches(px, pz, footprint);
      groundShadows(P.surface, P.terrain, P.sky, P.clouds, px, P.camY + sp * t, pz, sample);
    }
    r.values.set(sample.subarray(0, stride), k * stride);
  }
  r.values.copyWithin(n * stride, 0, stride);
}
