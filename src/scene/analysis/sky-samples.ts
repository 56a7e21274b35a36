/**
 * The sky of a panorama as the clear-sky fit reads it (clear-sky-fit.ts): pixels about
 * GRID_DEG apart over the sky above the horizon, each with its direction, its log
 * luminance and whether it is censored: a pixel with a channel at the image's clip level
 * holds at least that much light, not that much (an HDRI made from an 8-bit picture, or a
 * flat-topped disk).
 */
import { directionOfUv, elevationOfV } from "../../api/panorama/panorama-directions.ts";
import type { HdrPixels } from "./hdr-pixels.ts";
import { CLIP_SHARE } from "./sky-fit.ts";
import { luminanceAt, skyRows } from "./sun-candidates.ts";

/** Spacing of the samples (degrees): finer than the sky's gradation and aureole change, coarse enough to fit fast. */
const GRID_DEG = 3;

export interface SkySamples {
  count: number;
  /** Unit directions, 3 per sample. */
  direction: Float64Array;
  /** Natural log of each sample's luminance (of the clip level's, for a censored one). */
  logL: Float64Array;
  /** 1 where the sample is censored (a channel at the clip level). */
  censored: Uint8Array;
  /** Pixel index of each sample in the panorama. */
  pixel: Int32Array;
  /** Natural log of the luminance a censored pixel holds at least. */
  logClip: number;
}

/**
 * The sky's samples, from 1 degree above the horizon (the horizon's own row mixes sky and
 * ground) to the zenith, columns farther apart towards the zenith so each covers about the
 * same solid angle.
 * @param clip the largest channel value of the panorama's sky
 */
export function skySamples(image: HdrPixels, clip: number): SkySamples {
  const { width, height, rgb } = image;
  const rowStep = Math.max(1, Math.round((height * GRID_DEG) / 180));
  const dirs: number[] = [];
  const logs: number[] = [];
  const cens: number[] = [];
  const pix: number[] = [];
  const limit = CLIP_SHARE * clip;
  const d = [0, 0, 0];
  for (let y = Math.floor(rowStep / 2); y < skyRows(height); y += rowStep) {
    const elevation = elevationOfV((y + 0.5) / height);
    if (elevation < Math.PI / 180) continue;
    const colStep = Math.max(1, Math.round((width * GRID_DEG) / 360 / Math.max(Math.cos(elevation), 0.05)));
    for (let x = 0; x < width; x += colStep) {
      const i = y * width + x;
      const o = i * 3;
      const censored = rgb[o]! >= limit || rgb[o + 1]! >= limit || rgb[o + 2]! >= limit;
      const l = luminanceAt(rgb, i);
      if (!(l > 0) && !censored) continue;
      directionOfUv((x + 0.5) / width, (y + 0.5) / height, d);
      dirs.push(d[0]!, d[1]!, d[2]!);
      logs.push(censored ? Math.log(Math.max(l, 1e-30)) : Math.log(l));
      cens.push(censored ? 1 : 0);
      pix.push(i);
    }
  }
  return {
    count: pix.length,
    direction: Float64Array.from(dirs),
    logL: Float64Array.from(logs),
    censored: Uint8Array.from(cens),
    pixel: Int32Array.from(pix),
    logClip: Math.log(limit),
  };
}
