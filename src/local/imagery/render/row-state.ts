/**
 * What the render keeps about the row it is drawing: its elevation, the pixel being
 * shaded, and the row's tables, each built on first use by a pixel that needs it (the sky
 * layers of sky-row.ts, the fog table of fog.ts, the coarse grid of nadir-grid.ts).
 */
import { FOG_TABLE_LENGTH, fillFogTable } from "../scene/fog.ts";
import type { PreparedScene } from "../scene/prepare-scene.ts";
import { createNadirCache, createNadirPlan, type NadirCache, type NadirPlan } from "./nadir-grid.ts";
import { createSkyRow, type SkyRow } from "./sky-row.ts";

export interface RowState {
  y: number;
  /** Column of the pixel being shaded, and its direction (x, y, z): passed in memory, not as arguments. */
  x: number;
  ray: Float64Array;
  /** Sine and cosine of the row's elevation. */
  sp: number;
  cp: number;
  sky: SkyRow;
  /** Row the fog table is for (-1: none). */
  fogRow: number;
  fog: Float64Array;
  /** How the row's pixels on the camera's flat top are shaded. */
  nadirPlan: NadirPlan;
  nadir: NadirCache;
}

// One per worker thread (a thread draws one row at a time): the hot loops read the row from
// memory instead of taking it as arguments, which would allocate a heap number per float.
let state: RowState | null = null;

/** This thread's row state, emptied for a new band of rows of a panorama `width` wide. */
export function rowState(width: number): RowState {
  if (!state || state.sky.width !== width) {
    state = {
      y: -1,
      x: 0,
      ray: new Float64Array(3),
      sp: 0,
      cp: 1,
      sky: createSkyRow(width),
      fogRow: -1,
      fog: new Float64Array(FOG_TABLE_LENGTH),
      nadirPlan: createNadirPlan(),
      nadir: createNadirCache(),
    };
  }
  state.sky.y = -1;
  state.fogRow = -1;
  return state;
}

/** The fog table of the current row. */
export function fogTable(P: PreparedScene, row: RowState): Float64Array {
  if (row.fogRow !== row.y) {
    fillFogTable(P.fog, row.sp, row.fog);
    row.fogRow = row.y;
  }
  return row.fog;
}
