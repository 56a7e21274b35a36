/**
 * Anti-aliased skylines. A pixel centre is either ground or sky, so a ridge drawn from
 * centres alone is a staircase of whole pixels, and the playground magnifies it. The
 * terrain march knows each column's skyline exactly (the tangent of the highest elevation
 * its ground reaches, terrain-march.ts); between column centres it is drawn as a straight
 * line. A pixel the line crosses gets the share of its area below the line (its ground
 * coverage, from 8 sub-columns, each covered exactly in height) and is shaded twice, as
 * ground and as sky, blended by that share. Only pixels on the line pay for it: a few per
 * column.
 */

/** The skyline of the current render, as continuous rows (0 at the image's top edge). */
export interface SkylineRows {
  width: number;
  /** Skyline row of each column (NaN: none). */
  rows: Float64Array;
  /** First and last image row the line crosses near each column (lo > hi: none). */
  lo: Int32Array;
  hi: Int32Array;
  /** Distance (m) to the ground at each column's skyline. */
  distance: Float64Array;
  /** Whether any column has a skyline to draw. */
  on: boolean;
}

const SUBCOLUMNS = 8;

// The skyline of the render this worker thread is drawing, set once per band: its pixels
// read it without being passed it (see row-state.ts).
let cached: SkylineRows | null = null;

/**
 * The skyline of a width x height render from the march's `skyline` (2 x width: tangent,
 * distance), for this thread (reused while the width stays). Columns whose skyline is the
 * sea's or the far plain's horizon are left out (`flat`): that line is level, and its
 * ground is not the land's to shade.
 */
export function skylineRows(
  skyline: Float32Array,
  width: number,
  height: number,
  flat: (tan: number, distance: number) => boolean,
): SkylineRows {
  if (!cached || cached.width !== width) {
    cached = {
      width,
      rows: new Float64Array(width),
      lo: new Int32Array(width),
      hi: new Int32Array(width),
      distance: new Float64Array(width),
      on: false,
    };
  }
  const S = cached;
  S.on = false;
  if (skyline.length < 2 * width) {
    S.rows.fill(Number.NaN);
    return S;
  }
  for (let x = 0; x < width; x++) {
    const tan = skyline[x]!;
    const distance = skyline[width + x]!;
    const off = Number.isNaN(tan) || flat(tan, distance);
    S.rows[x] = off ? Number.NaN : height * (0.5 - Math.atan(tan) / Math.PI);
    S.distance[x] = distance;
  }
  for (let x = 0; x < width; x++) {
    const c = S.rows[x]!;
    if (Number.isNaN(c)) {
      S.lo[x] = 1;
      S.hi[x] = 0;
      continue;
    }
    // The line between this centre and its neighbours' midpoints.
    const l = halfway(c, S.rows[x === 0 ? width - 1 : x - 1]!);
    const r = halfway(c, S.rows[x === width - 1 ? 0 : x + 1]!);
    S.lo[x] = Math.max(0, Math.floor(Math.min(c, l, r)));
    S.hi[x] = Math.min(height - 1, Math.floor(Math.max(c, l, r)));
    S.on = true;
  }
  return S;
}

function halfway(c: number, neighbour: number): number {
  return Number.isNaN(neighbour) ? c : (c + neighbour) / 2;
}

/**
 * Share (0..1) of pixel (x, y) below the skyline: the line runs straight between column
 * centres, and each sub-column's share is exact in height. Call only for y in lo..hi of x.
 */
export function groundCoverage(S: SkylineRows, x: number, y: number): number {
  const W = S.width;
  const c = S.rows[x]!;
  const left = S.rows[x === 0 ? W - 1 : x - 1]!;
  const right = S.rows[x === W - 1 ? 0 : x + 1]!;
  let covered = 0;
  for (let k = 0; k < SUBCOLUMNS; k++) {
    const d = (k + 0.5) / SUBCOLUMNS - 0.5;
    const n = d < 0 ? left : right;
    const row = Number.isNaN(n) ? c : c + (n - c) * (d < 0 ? -d : d);
    const share = y + 1 - row;
    covered += share <= 0 ? 0 : share >= 1 ? 1 : share;
  }
  return covered / SUBCOLUMNS;
}

/**
 * Distance (m) at which to shade the ground a sky pixel near column x partly shows: that
 * of the highest skyline among the column and its neighbours (the ridge the line comes from).
 */
export function skylineDistance(S: SkylineRows, x: number): number {
  const W = S.width;
  const l = x === 0 ? W - 1 : x - 1;
  const r = x === W - 1 ? 0 : x + 1;
  let best = x;
  if (S.rows[l]! < S.rows[best]!) best = l;
  if (S.rows[r]! < S.rows[best]!) best = r;
  return S.distance[best]!;
}
