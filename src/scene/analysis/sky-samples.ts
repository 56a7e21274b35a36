/**
 * The sky of a panorama as the fits read it: pixels on a grid a few degrees apart over the
 * sky above the horizon, columns farther apart towards the zenith so each stands for about
 * the same solid angle, each with its direction, log luminance, colour and how many of its
 * channels reach the image's clip level: such a pixel holds at least that much light, not
 * that much (an HDRI made from an 8-bit picture, or a flat-topped disk). One grid serves
 * every reader; each picks the samples it trusts: clear-sky-fit.ts takes the clipped ones
 * as censored, clear-sky-search.ts leaves them out, and so does sky-fit.ts unless too few
 * are left.
 */
import { directionOfUv, elevationOfV } from "../../api/panorama/panorama-directions.ts";
import type { HdrPixels } from "./hdr-pixels.ts";
import { luminanceAt, skyRows } from "./sun-candidates.ts";

/** A pixel's channel counts as clipped from this share of the clip level. */
const CLIP_SHARE = 0.99;
/** Lowest samples by default: the horizon's own row mixes sky and ground. */
const LOWEST = Math.PI / 180;

export interface SkySamples {
  count: number;
  /** Unit directions, 3 per sample. */
  direction: Float64Array;
  /** Natural log of each sample's luminance (what a clipped one holds at least). */
  logL: Float64Array;
  /** How many of each sample's channels reach the clip level (0 to 3). */
  clipped: Uint8Array;
  /** Each sample's (B - R) / (B + R). */
  blue: Float64Array;
}

/**
 * The sky's samples: pixels about `spacing` degrees apart from `minElevation` up, those with
 * no light left out.
 * @param clip the largest channel value of the panorama's sky
 */
export function skySamples(image: HdrPixels, clip: number, spacing: number, minElevation = LOWEST): SkySamples {
  const { width, height, rgb } = image;
  const dirs: number[] = [];
  const logs: number[] = [];
  const clips: number[] = [];
  const blues: number[] = [];
  const limit = CLIP_SHARE * clip;
  const d = [0, 0, 0];
  for (const [x, y] of skyGrid(width, height, spacing, minElevation)) {
    const i = y * width + x;
    const [r, g, b] = [rgb[i * 3]!, rgb[i * 3 + 1]!, rgb[i * 3 + 2]!];
    const clipped = (r >= limit ? 1 : 0) + (g >= limit ? 1 : 0) + (b >= limit ? 1 : 0);
    const l = luminanceAt(rgb, i);
    if (!(l > 0) && !clipped) continue;
    directionOfUv((x + 0.5) / width, (y + 0.5) / height, d);
    dirs.push(d[0]!, d[1]!, d[2]!);
    logs.push(Math.log(Math.max(l, 1e-30)));
    clips.push(clipped);
    blues.push(r + b > 0 ? (b - r) / (b + r) : 0);
  }
  return {
    count: clips.length,
    direction: Float64Array.from(dirs),
    logL: Float64Array.from(logs),
    clipped: Uint8Array.from(clips),
    blue: Float64Array.from(blues),
  };
}

/**
 * Pixels about `spacing` degrees apart over the sky from `minElevation` (radians) up, columns
 * farther apart towards the zenith: column, row and elevation of each.
 */
export function* skyGrid(width: number, height: number, spacing: number, minElevation: number): Generator<[number, number, number]> {
  const rowStep = Math.max(1, Math.round((height * spacing) / 180));
  for (let y = Math.floor(rowStep / 2); y < skyRows(height); y += rowStep) {
    const elevation = elevationOfV((y + 0.5) / height);
    if (elevation < minElevation) continue;
    const colStep = Math.max(1, Math.round((width * spacing) / 360 / Math.max(Math.cos(elevation), 0.05)));
    for (let x = 0; x < width; x += colStep) yield [x, y, elevation];
  }
}
