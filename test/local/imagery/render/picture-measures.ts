/**
 * Measures of what a viewer sees in a rendered panorama, read from its files: where the
 * skyline lies in each column (sub-pixel, from the linear radiance), how much of a slanted
 * skyline is drawn as stair steps, and column-to-column jumps against the picture's own
 * texture (seams).
 */
import { readDistance, readRadiance } from "../render-fixtures.ts";
import { SKY_DISTANCE } from "../../../../src/local/imagery/pipeline/generate-skybox.ts";

export interface Linear {
  width: number;
  height: number;
  /** Luminance of each pixel, linear. */
  lum: Float64Array;
}

export function linearLuminance(dir: string): Linear {
  const { width, height, rgb } = readRadiance(dir);
  const lum = new Float64Array(width * height);
  for (let i = 0; i < lum.length; i++) lum[i] = rgb[i * 3]! * 0.2126 + rgb[i * 3 + 1]! * 0.7152 + rgb[i * 3 + 2]! * 0.0722;
  return { width, height, lum };
}

/** The first row of column `x`, from the top, nearer than the sky (-1: sky down to 60% of the height). */
function firstGroundRow(distance: Float32Array, W: number, H: number, x: number): number {
  for (let y = 0; y < H * 0.6; y++) if (distance[y * W + x]! < SKY_DISTANCE) return y;
  return -1;
}

/**
 * Each column's skyline row, sub-pixel (NaN where it cannot be read): the first row whose
 * centre sees ground (distance.f32 at the image's size) locates it to a pixel; in the
 * rows around it, each pixel's share of sky, from its luminance between the sky above and
 * the ground below (radiance is linear, so a pixel half covered is half way), adds up to
 * where the line crosses. Columns with too little contrast between the two are left out.
 */
export function skylineRows(dir: string): Float64Array {
  const img = linearLuminance(dir);
  const { width: W, height: H, lum } = img;
  const distance = readDistance(dir);
  if (distance.length !== W * H) throw new Error("the render's depthSize must be its size");
  const rows = new Float64Array(W).fill(Number.NaN);
  const R = 2;
  for (let x = 0; x < W; x++) {
    const k = firstGroundRow(distance, W, H, x);
    if (k < R + 2 || k + R + 2 >= H) continue;
    const sky = lum[(k - R - 2) * W + x]!;
    const ground = lum[(k + R + 1) * W + x]!;
    if (Math.abs(sky - ground) < 0.3 * Math.max(sky, ground)) continue;
    let skyRows = 0;
    for (let y = k - R; y <= k + R; y++) {
      const f = (lum[y * W + x]! - ground) / (sky - ground);
      skyRows += f < 0 ? 0 : f > 1 ? 1 : f;
    }
    rows[x] = k - R + skyRows;
  }
  return rows;
}

/**
 * Stair steps of a skyline: along its slanted stretches (rising or falling `minSlope` to
 * `maxSlope` rows a column over 9 columns), the share of columns where the line does not
 * move at all from the one before. A line drawn from pixel centres is flat for 1/slope
 * columns, then jumps a whole row; an anti-aliased one moves a little every column.
 */
export function stairShare(rows: Float64Array, minSlope = 0.2, maxSlope = 0.8): { share: number; columns: number } {
  const W = rows.length;
  let flat = 0;
  let columns = 0;
  for (let x = 4; x < W - 5; x++) {
    const slope = Math.abs(rows[x + 4]! - rows[x - 4]!) / 8;
    if (!(slope >= minSlope && slope <= maxSlope)) continue;
    let smooth = true;
    for (let k = x - 4; k < x + 4; k++) if (Math.abs(rows[k + 1]! - rows[k]!) > 1.5 || Number.isNaN(rows[k]!)) smooth = false;
    if (!smooth) continue;
    columns++;
    if (Math.abs(rows[x + 1]! - rows[x]!) < 0.05) flat++;
  }
  return { share: columns ? flat / columns : 0, columns };
}

/**
 * How much the top of the land looks like a blend with the sky behind it, 0 (solid) to 1
 * (sky): in each column whose skyline tops a tall enough form (distance.f32 at the
 * image's size), the pixels 1 to 4 rows under the skyline are set against the sky's
 * colour (rows 6 to 12 above) and the form's own (rows 12 to 18 below), and their place
 * between the two is averaged. A painted stroke that crosses the edge carries the sky
 * down into the form (a see-through ghost); one that keeps to the form does not.
 */
export function skyBlend(
  img: { width: number; height: number; data: Uint8Array },
  distance: Float32Array,
): { blend: number; columns: number } {
  const { width: W, height: H, data } = img;
  if (distance.length !== W * H) throw new Error("the render's depthSize must be its size");
  const mean = (x: number, y0: number, y1: number, out: number[]) => {
    out[0] = out[1] = out[2] = 0;
    for (let y = y0; y < y1; y++) for (let c = 0; c < 3; c++) out[c]! += data[(y * W + x) * 3 + c]! / (y1 - y0);
  };
  const sky = [0, 0, 0];
  const form = [0, 0, 0];
  let sum = 0;
  let columns = 0;
  for (let x = 0; x < W; x++) {
    const k = firstGroundRow(distance, W, H, x);
    if (k < 12 || k + 18 >= H) continue;
    // One form: no sky and no jump in distance down to row k + 18.
    let solid = true;
    for (let y = k; y < k + 18; y++)
      if (!(distance[y * W + x]! < SKY_DISTANCE) || Math.abs(distance[y * W + x]! / distance[k * W + x]! - 1) > 0.3) solid = false;
    for (let y = k - 12; y < k; y++) if (distance[y * W + x]! < SKY_DISTANCE) solid = false;
    if (!solid) continue;
    mean(x, k - 12, k - 6, sky);
    mean(x, k + 12, k + 18, form);
    const d = [sky[0]! - form[0]!, sky[1]! - form[1]!, sky[2]! - form[2]!];
    const d2 = d[0]! * d[0]! + d[1]! * d[1]! + d[2]! * d[2]!;
    if (d2 < 60 * 60) continue;
    let a = 0;
    for (let y = k + 1; y <= k + 4; y++) {
      const o = (y * W + x) * 3;
      a += ((data[o]! - form[0]!) * d[0]! + (data[o + 1]! - form[1]!) * d[1]! + (data[o + 2]! - form[2]!) * d[2]!) / d2 / 4;
    }
    sum += a;
    columns++;
  }
  return { blend: columns ? sum / columns : 0, columns };
}

/**
 * Texture at the finest scale in the rows of ground between two elevations (degrees,
 * below the horizon: negative): the mean difference between a pixel's linear luminance and
 * the mean of its four neighbours, as a share of the mean luminance there. Ground whose
 * finest texture spans many pixels (a smooth "camouflage" of blobs) scores near 0; grain
 * a pixel or two across (pebbles, grass, what an object stands on) scores higher.
 */
export function fineTexture(img: Linear, fromDegrees: number, toDegrees: number): number {
  const { width: W, height: H, lum } = img;
  const row = (degrees: number) => Math.round((0.5 - degrees / 180) * H);
  const at = (x: number, y: number) => lum[y * W + ((x + W) % W)]!;
  let high = 0;
  let sum = 0;
  for (let y = row(fromDegrees); y < row(toDegrees); y++) {
    for (let x = 0; x < W; x++) {
      const c = at(x, y);
      high += Math.abs(c - (at(x - 1, y) + at(x + 1, y) + at(x, y - 1) + at(x, y + 1)) / 4);
      sum += c;
    }
  }
  return sum > 0 ? high / sum : 0;
}

/**
 * A horizontal seam in the ground between two elevations (degrees, negative: below the
 * horizon): the largest change from one row to the next (the mean over the row of the
 * linear luminance's difference, as a share of the row's mean luminance) over the median
 * such change there, the picture's own texture. A line where every column changes at the
 * same row (the edge of a flat disc round the camera, a circle in the scene) stands out
 * several times over; a rough edge spreads its change over rows.
 */
export function rowSeam(img: Linear, fromDegrees: number, toDegrees: number): { ratio: number; degrees: number } {
  const { width: W, height: H, lum } = img;
  const row = (degrees: number) => Math.round((0.5 - degrees / 180) * H);
  const jumps: number[] = [];
  const y0 = row(fromDegrees);
  for (let y = y0; y < row(toDegrees); y++) {
    let d = 0;
    let m = 0;
    for (let x = 0; x < W; x++) {
      d += Math.abs(lum[(y + 1) * W + x]! - lum[y * W + x]!);
      m += lum[y * W + x]! + lum[(y + 1) * W + x]!;
    }
    jumps.push((2 * d) / m);
  }
  const median = [...jumps].sort((a, b) => a - b)[jumps.length >> 1]!;
  const worst = jumps.indexOf(Math.max(...jumps));
  return { ratio: jumps[worst]! / median, degrees: 90 - ((y0 + worst + 1) / H) * 180 };
}

/** Mean display luminance (0..255) of the rows between two elevations (degrees, negative: below the horizon). */
export function meanDisplayLuma(img: { width: number; height: number; data: Uint8Array }, fromDegrees: number, toDegrees: number): number {
  const { width: W, height: H, data } = img;
  const row = (degrees: number) => Math.round((0.5 - degrees / 180) * H);
  let sum = 0;
  let n = 0;
  for (let y = row(fromDegrees); y < row(toDegrees); y++)
    for (let x = 0; x < W; x++, n++) {
      const o = (y * W + x) * 3;
      sum += 0.2126 * data[o]! + 0.7152 * data[o + 1]! + 0.0722 * data[o + 2]!;
    }
  return n ? sum / n : 0;
}

/**
 * A dark contour along the skyline, 0 (none) to 1 (black): in each column whose skyline
 * tops a solid form (distance.f32 at the image's size), how much darker the darkest of the
 * rows from one above to two under the skyline is than the darker of the sky (rows 8 to 3
 * above) and the form (rows 4 to 10 under). An anti-aliased edge lies between the two; an
 * inked outline lies under both.
 */
export function skylineContour(
  img: { width: number; height: number; data: Uint8Array },
  distance: Float32Array,
): { darkness: number; columns: number } {
  const { width: W, height: H, data } = img;
  if (distance.length !== W * H) throw new Error("the render's depthSize must be its size");
  const luma = (x: number, y: number) => {
    const o = (y * W + x) * 3;
    return 0.2126 * data[o]! + 0.7152 * data[o + 1]! + 0.0722 * data[o + 2]!;
  };
  const mean = (x: number, y0: number, y1: number) => {
    let s = 0;
    for (let y = y0; y < y1; y++) s += luma(x, y) / (y1 - y0);
    return s;
  };
  let sum = 0;
  let columns = 0;
  for (let x = 0; x < W; x++) {
    const k = firstGroundRow(distance, W, H, x);
    if (k < 8 || k + 10 >= H) continue;
    let solid = true;
    for (let y = k; y < k + 10; y++) if (!(distance[y * W + x]! < SKY_DISTANCE)) solid = false;
    if (!solid) continue;
    const floor = Math.min(mean(x, k - 8, k - 3), mean(x, k + 4, k + 10));
    if (floor < 20) continue;
    let darkest = Infinity;
    for (let y = k - 1; y <= k + 2; y++) darkest = Math.min(darkest, luma(x, y));
    sum += Math.max(0, 1 - darkest / floor);
    columns++;
  }
  return { darkness: columns ? sum / columns : 0, columns };
}

/**
 * How rough the sky (or, with `of` "forms", what stands nearer than it: ground,
 * buildings) is between two elevations (degrees): the mean luma step (0..255) between a
 * pixel and its right and lower neighbours, all three of the kind measured (distance.f32
 * at the image's size). A sky's gradient steps by a level or two; a patchwork of facets
 * shaded apart, or lit by single stars, steps far more at every facet's edge, and so do
 * facets that each take a window or a wall of a city.
 */
export function skyRoughness(
  img: { width: number; height: number; data: Uint8Array },
  distance: Float32Array,
  fromDegrees: number,
  toDegrees: number,
  of: "sky" | "forms" = "sky",
): number {
  const { width: W, height: H, data } = img;
  if (distance.length !== W * H) throw new Error("the render's depthSize must be its size");
  const row = (degrees: number) => Math.round((0.5 - degrees / 180) * H);
  const luma = (i: number) => 0.2126 * data[i * 3]! + 0.7152 * data[i * 3 + 1]! + 0.0722 * data[i * 3 + 2]!;
  const sky = (i: number) => !(distance[i]! < SKY_DISTANCE);
  const kind = of === "sky" ? sky : (i: number) => !sky(i);
  let sum = 0;
  let n = 0;
  for (let y = row(fromDegrees); y < row(toDegrees); y++)
    for (let x = 0; x < W - 1; x++) {
      const i = y * W + x;
      if (!kind(i) || !kind(i + 1) || !kind(i + W)) continue;
      sum += Math.abs(luma(i + 1) - luma(i)) + Math.abs(luma(i + W) - luma(i));
      n += 2;
    }
  return n ? sum / n : 0;
}

/**
 * Whether the forms nearer than the sky between two elevations (degrees) are drawn in
 * whole pieces or as a speckle: the mean luma difference between a pixel and the one
 * `gap` rows under it, both on a form (distance.f32 at the image's size), over the mean
 * difference between any two of those pixels. Near 0, a pixel `gap` rows down is mostly
 * the same piece in the same colour (a building's face drawn whole); near 1, it is no
 * more alike than any two pixels of the band (each piece coloured on its own, a speckle).
 * With the median luma of those pixels and that of their brightest tenth.
 */
export function pieceSpeckle(
  img: { width: number; height: number; data: Uint8Array },
  distance: Float32Array,
  fromDegrees: number,
  toDegrees: number,
  gap: number,
): { speckle: number; pixels: number; median: number; brightestTenth: number } {
  const { width: W, height: H, data } = img;
  if (distance.length !== W * H) throw new Error("the render's depthSize must be its size");
  const row = (degrees: number) => Math.round((0.5 - degrees / 180) * H);
  const luma = (i: number) => 0.2126 * data[i * 3]! + 0.7152 * data[i * 3 + 1]! + 0.0722 * data[i * 3 + 2]!;
  const form = (i: number) => distance[i]! < SKY_DISTANCE;
  const values: number[] = [];
  let near = 0;
  let pairs = 0;
  for (let y = row(fromDegrees); y < row(toDegrees); y++)
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      if (!form(i)) continue;
      values.push(luma(i));
      if (y + gap < H && form(i + gap * W)) {
        near += Math.abs(luma(i + gap * W) - luma(i));
        pairs++;
      }
    }
  // The mean difference of all pairs, from the sorted values (each value's rank says how
  // many are below and above it).
  values.sort((a, b) => a - b);
  const n = values.length;
  let any = 0;
  for (let k = 0; k < n; k++) any += (2 * k - n + 1) * values[k]!;
  any = n > 1 ? (2 * any) / (n * (n - 1)) : 0;
  return {
    speckle: pairs && any > 0 ? near / pairs / any : 0,
    pixels: pairs,
    median: values[n >> 1] ?? 0,
    brightestTenth: values[Math.floor(n * 0.9)] ?? 0,
  };
}
