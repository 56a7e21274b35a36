/**
 * The structure of a guide image: for each column, the row that best splits it into a
 * "sky" part above and a "ground" part below (largest between-part luma variance, Otsu's
 * criterion along the column), as elevations in degrees. Columns with no clear split
 * report 0 (the plain horizon). Smoothed around 360 degrees.
 */
import { latitudeOfV } from "../../../api/panorama/panorama-directions.ts";
import type { RawImage } from "./guide-images.ts";

/** Skyline elevation (degrees) per column of an equirectangular image. */
export function skylineProfile(img: RawImage): number[] {
  const { width: W, height: H, data } = img;
  const out: number[] = [];
  const luma = new Float64Array(H);
  for (let x = 0; x < W; x++) {
    for (let y = 0; y < H; y++) {
      const o = (y * W + x) * 3;
      luma[y] = data[o]! * 0.3 + data[o + 1]! * 0.59 + data[o + 2]! * 0.11;
    }
    out.push(bestSplit(luma));
  }
  return smoothCircular(out, Math.max(1, Math.round(W / 256)));
}

/** Elevation (degrees) of the best sky/ground split of a column of lumas (0 if none). */
export function bestSplit(luma: Float64Array): number {
  const H = luma.length;
  let total = 0;
  let totalSq = 0;
  for (let y = 0; y < H; y++) {
    total += luma[y]!;
    totalSq += luma[y]! * luma[y]!;
  }
  const variance = totalSq / H - (total / H) ** 2;
  let best = 0;
  let bestRow = -1;
  let above = 0;
  for (let y = 1; y < H; y++) {
    above += luma[y - 1]!;
    const wa = y / H;
    const ma = above / y;
    const mb = (total - above) / (H - y);
    const between = wa * (1 - wa) * (ma - mb) ** 2;
    if (between > best) {
      best = between;
      bestRow = y;
    }
  }
  // A split must explain a good part of the column's variance and be a real contrast.
  if (bestRow < 0 || best < 0.5 * variance || best < 40) return 0;
  return latitudeOfV(bestRow / H);
}

function smoothCircular(values: number[], radius: number): number[] {
  const n = values.length;
  return values.map((_, i) => {
    let sum = 0;
    for (let k = -radius; k <= radius; k++) sum += values[(i + k + n) % n]!;
    return sum / (2 * radius + 1);
  });
}
