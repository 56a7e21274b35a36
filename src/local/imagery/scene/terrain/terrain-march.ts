/**
 * Exact ray/heightfield intersection for whole pixel columns at once. All rows of a column
 * share one vertical plane (the column's azimuth), so one front-to-back march along that
 * plane resolves every row: a row's ray hits the terrain between the two samples where the
 * terrain's elevation angle first reaches the ray's, and the hit distance is refined by
 * linear interpolation there. Steps grow with distance and with the clearance between the
 * lowest unresolved ray and the ground (bounded by the relief's maximum slope), and the
 * march stops once no remaining ray can reach the highest possible peak.
 */
import { azimuthOfU, elevationOfV } from "../../../../api/panorama/panorama-directions.ts";
import { RELIEF, type TerrainParams, terrainHeightOnly, terrainOctaves } from "./terrain.ts";

/** Distance written for rays that hit no ground. */
export const NO_HIT = Infinity;

/**
 * Writes the ground hit distance (along the ray, metres; NO_HIT for none) of every pixel
 * of columns [x0, x1) of a width x height panorama into `out` (row-major, width wide: all
 * rows, or only those above the camera's flat top, see `flatTop`), and, given `skyline`
 * (2 x width), each column's skyline: the tangent of the highest elevation its ground
 * reaches at skyline[x] (NaN for none), the distance there at skyline[width + x]. Pixel
 * centres see the skyline a row at a time; the render draws its true position between
 * them (render/skyline-coverage.ts). `sparse`: `out` is fresh (zeroes) and its reader
 * takes 0 for NO_HIT, so no-hit pixels are left unwritten: the sky's rows then never
 * touch their memory pages, which the process's memory never counts.
 */
export function marchColumns(
  T: TerrainParams,
  width: number,
  height: number,
  x0: number,
  x1: number,
  out: Float32Array,
  skyline?: Float32Array,
  sparse = false,
): void {
  const { tan, sec } = rowSlopes(height);
  // Rows from `rows` on are the flat top's, whose distances `flatTop` gives: `out` may hold fewer rows.
  const rows = out.length / width;
  const pixelAngle = (2 * Math.PI) / width;
  const k = Math.min(0.03, Math.max(0.0015, 2.2 * pixelAngle));
  for (let x = x0; x < x1; x++) {
    // The march writes hits only, so one compiled march serves both kinds of `out`: a branch
    // one kind never takes would be compiled without feedback, and the other kind would leave
    // the compiled code at it, column after column.
    if (!sparse) for (let y = 0; y < rows; y++) out[y * width + x] = NO_HIT;
    if (T.kind === RELIEF.none) {
      if (skyline) skyline[x] = skyline[width + x] = Number.NaN;
      continue;
    }
    marchColumn(T, width, height, rows, x, tan, sec, pixelAngle, k, out);
    if (skyline) {
      skyline[x] = top[0]!;
      skyline[width + x] = top[1]!;
    }
  }
}

/** The last marched column's skyline: tangent of its highest elevation (NaN: none), distance there. */
const top = new Float64Array(2);

function marchColumn(
  T: TerrainParams,
  width: number,
  height: number,
  rows: number,
  x: number,
  tan: Float64Array,
  sec: Float64Array,
  pixelAngle: number,
  k: number,
  out: Float32Array,
): void {
  const az = azimuthOfU((x + 0.5) / width);
  const hx = Math.sin(az);
  const hz = -Math.cos(az);
  const camY = T.camY;
  const eye = camY - T.ground;
  let y = height - 1;
  // Steep rays land on the flat spot under the camera: exact plane hits (flatTop's).
  const tan0 = -eye / T.r0;
  for (; y >= 0 && tan[y]! < tan0; y--) if (y < rows) out[y * width + x] = (eye / -tan[y]!) * sec[y]!;
  let r = T.r0;
  let hPrev = T.ground;
  let highest = -Infinity;
  let highestR = 0;
  const water = T.water;
  while (y >= 0 && r < T.maxDistance) {
    const ty = tan[y]!;
    let dr = r * k;
    const gap = camY + r * ty - hPrev;
    const climb = T.slope - ty;
    if (climb > 0) {
      const safe = (0.8 * gap) / climb;
      if (safe > dr) dr = safe;
    } else break;
    const rn = r + dr > T.maxDistance ? T.maxDistance : r + dr;
    let h = terrainHeightOnly(T, hx * rn, hz * rn, terrainOctaves(T, rn, pixelAngle));
    if (h < water) h = water;
    const tn = (h - camY) / rn;
    if (tn > highest) {
      highest = tn;
      highestR = rn;
    }
    while (y >= 0 && tan[y]! <= tn) {
      const t = tan[y]!;
      const g0 = hPrev - camY - r * t;
      const g1 = h - camY - rn * t;
      const f = g0 < 0 ? g0 / (g0 - g1) : 0;
      out[y * width + x] = (r + (rn - r) * f) * sec[y]!;
      y--;
    }
    if (y >= 0 && tan[y]! > (T.maxHeight - camY) / rn) break;
    r = rn;
    hPrev = h;
  }
  // Beyond the march: the sea (or the far valley floor) as an exact plane, else sky.
  const far = water > T.floor ? water : T.floor;
  // That plane rises to the horizon (tangent 0), far away.
  if (far < camY && highest < 0) {
    highest = 0;
    highestR = T.maxDistance;
  }
  top[0] = highest === -Infinity ? Number.NaN : highest;
  top[1] = highestR * Math.sqrt(1 + highest * highest);
  for (; y >= 0; y--) {
    const t = tan[y]!;
    if (t < 0 && far < camY) {
      const rh = (camY - far) / -t;
      out[y * width + x] = (rh > r ? rh : r) * sec[y]!;
    }
  }
}

/** Tangent and secant of every row's elevation in a panorama `height` rows tall. */
function rowSlopes(height: number): { tan: Float64Array; sec: Float64Array } {
  const tan = new Float64Array(height);
  const sec = new Float64Array(height);
  for (let y = 0; y < height; y++) {
    const phi = elevationOfV((y + 0.5) / height);
    tan[y] = Math.tan(phi);
    sec[y] = 1 / Math.cos(phi);
  }
  return { tan, sec };
}

/** The rows of a panorama whose every pixel lands on the camera's flat top. */
export interface FlatTop {
  /** The first of them: rows [row, height) (height: none). */
  row: number;
  /** Float32 per row: the hit distance the march finds in every column of a flat-top row (rows before `row`: 0). */
  distances: Float32Array;
  /** Whether the flat top stands clear of the water (by far more than rounding): none of its pixels is water. */
  dry: boolean;
}

/**
 * The rows the march resolves as exact hits of the camera's flat top, the same in every
 * column (marchColumn's first loop, with the same numbers): a render keeps one distance
 * for each of them instead of a row of pixels, a third of the image.
 */
export function flatTop(T: TerrainParams, height: number): FlatTop {
  const distances = new Float32Array(height);
  const dry = T.ground > T.water + 1;
  if (T.kind === RELIEF.none) return { row: height, distances, dry };
  const { tan, sec } = rowSlopes(height);
  const eye = T.camY - T.ground;
  const tan0 = -eye / T.r0;
  let y = height - 1;
  for (; y >= 0 && tan[y]! < tan0; y--) distances[y] = (eye / -tan[y]!) * sec[y]!;
  return { row: y + 1, distances, dry };
}
