/**
 * The flat spot the camera stands on, shaded on a coarse screen grid. Every ray steeper
 * than atan(eye / r0) lands on that disc (terrain-march.ts), so it fills the bottom rows
 * of the panorama, a third of the image, with pixels a millimetre or two wide, while its
 * finest texture (the fine albedo and bump noise of surface.ts) has a lattice of
 * centimetres. There the land is shaded at every STEP-th pixel of every STEP-th row and
 * interpolated bilinearly; a row uses the grid only if the finest lattice spans at least
 * SAMPLES_PER_LATTICE grid steps (measured along the ray's foreshortened direction), so the
 * interpolation cannot be seen. Fog, guides and tone mapping still run per pixel.
 */
import { elevationOfV } from "../../../api/panorama/panorama-directions.ts";
import type { PreparedScene } from "../scene/prepare-scene.ts";
import { fineOctaves } from "../scene/surface.ts";
import { columnTrig } from "./column-trig.ts";
import { shadeLand } from "./land-pixel.ts";
import type { RowState } from "./row-state.ts";

const SAMPLES_PER_LATTICE = 6;
/** Grid steps tried, coarsest first. */
const STEPS = [4, 2];

interface CoarseRow {
  /** Image row of the samples (-1: empty). */
  y: number;
  values: Float64Array;
}

/** Coarse rows of the current scene: two per step (above and below the pixel row being drawn). */
export interface NadirCache {
  scene: PreparedScene | null;
  rows: Map<number, [CoarseRow, CoarseRow]>;
}

export function createNadirCache(): NadirCache {
  return { scene: null, rows: new Map() };
}

/** The grid step row y of the panorama is shaded with (0: every pixel). */
export function nadirStep(P: PreparedScene, y: number): number {
  const T = P.terrain;
  if (P.open || P.look.celBands > 0) return 0;
  if (P.water.on && T.ground <= P.water.level + 0.05) return 0;
  const eye = T.camY - T.ground;
  const tan0 = -eye / T.r0;
  for (const step of STEPS) {
    if (P.width % step !== 0) continue;
    const above = Math.floor(y / step) * step;
    if (above + step > P.height - 1) continue;
    // The sample row nearer the horizon has the larger footprint; it must be on the disc too.
    const phi = elevationOfV((above + 0.5) / P.height);
    if (!(Math.tan(phi) < tan0)) continue;
    const s = -Math.sin(phi);
    const t = eye / s;
    const lattice = Math.pow(2, 2 - fineOctaves(P.surface, t * P.pixelAngle));
    const footprint = (t * P.pixelAngle) / s;
    if (step * footprint * SAMPLES_PER_LATTICE <= lattice) return step;
  }
  return 0;
}

const sample = new Float64Array(3);

/** Radiance (before fog) of pixel x of the current row, from the grid of step row.nadirStep. */
export function nadirRadiance(P: PreparedScene, row: RowState, x: number, out: Float64Array): void {
  const step = row.nadirStep;
  const above = Math.floor(row.y / step) * step;
  const a = coarseRow(P, row, step, above).values;
  const b = coarseRow(P, row, step, above + step).values;
  const s = x / step;
  const k = Math.floor(s);
  const tx = s - k;
  const ty = (row.y - above) / step;
  const o = k * 3;
  for (let c = 0; c < 3; c++) {
    const top = a[o + c]! + (a[o + 3 + c]! - a[o + c]!) * tx;
    const bottom = b[o + c]! + (b[o + 3 + c]! - b[o + c]!) * tx;
    out[c] = top + (bottom - top) * ty;
  }
}

function coarseRow(P: PreparedScene, row: RowState, step: number, y: number): CoarseRow {
  const cache = row.nadir;
  if (cache.scene !== P) {
    cache.scene = P;
    cache.rows.clear();
  }
  const n = P.width / step;
  let pair = cache.rows.get(step);
  if (!pair) {
    pair = [
      { y: -1, values: new Float64Array((n + 1) * 3) },
      { y: -1, values: new Float64Array((n + 1) * 3) },
    ];
    cache.rows.set(step, pair);
  }
  if (pair[0].y === y) return pair[0];
  if (pair[1].y === y) return pair[1];
  // Replace the row further from y (rows are drawn top to bottom, mostly).
  const r = Math.abs(pair[0].y - y) > Math.abs(pair[1].y - y) ? pair[0] : pair[1];
  fillCoarseRow(P, r, step, y, n);
  return r;
}

function fillCoarseRow(P: PreparedScene, r: CoarseRow, step: number, y: number, n: number): void {
  r.y = y;
  const { sin, cos } = columnTrig(P.width);
  const phi = elevationOfV((y + 0.5) / P.height);
  const cp = Math.cos(phi);
  const sp = Math.sin(phi);
  const eye = P.camY - P.terrain.ground;
  // The march's exact hit of the flat top.
  const t = (eye / -Math.tan(phi)) / cp;
  for (let k = 0; k < n; k++) {
    const x = k * step;
    shadeLand(P, sin[x]! * cp, sp, -cos[x]! * cp, t, sample);
    r.values.set(sample, k * 3);
  }
  r.values.copyWithin(n * 3, 0, 3);
}
