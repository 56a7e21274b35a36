/**
 * An HDR panorama as float pixels, decoded by Babylon's own Radiance reader (the one
 * `HDRCubeTexture` uses), so the sun is found in exactly the radiance the environment shows.
 */
import { RGBE_ReadHeader, RGBE_ReadPixels } from "@babylonjs/core/Misc/HighDynamicRange/hdr.js";

/** A decoded equirectangular HDR panorama: linear RGB floats, 3 a pixel, top row first. */
export interface HdrPixels {
  width: number;
  height: number;
  rgb: Float32Array;
}

/**
 * Decodes a Radiance `.hdr` file (RGBE, flat or run-length encoded).
 * @param bytes the file
 * @returns its pixels
 */
export function decodeHdr(bytes: Uint8Array): HdrPixels {
  const info = RGBE_ReadHeader(bytes);
  return { width: info.width, height: info.height, rgb: RGBE_ReadPixels(bytes, info) };
}

/**
 * The panorama read every `factor` pixels across and down, each kept pixel the one nearest
 * the centre of its block: values are the panorama's own (a clipped pixel stays at the clip
 * level, as an average of clipped and unclipped ones would not).
 * @param image the panorama
 * @param factor whole number of pixels per kept pixel, each way (1: the panorama itself)
 */
export function pointSampled(image: HdrPixels, factor: number): HdrPixels {
  if (factor <= 1) return image;
  const width = Math.floor(image.width / factor);
  const height = Math.floor(image.height / factor);
  const rgb = new Float32Array(width * height * 3);
  const half = factor >> 1;
  for (let y = 0; y < height; y++) {
    const row = (y * factor + half) * image.width;
    for (let x = 0; x < width; x++) {
      const from = (row + x * factor + half) * 3;
      const to = (y * width + x) * 3;
      rgb[to] = image.rgb[from]!;
      rgb[to + 1] = image.rgb[from + 1]!;
      rgb[to + 2] = image.rgb[from + 2]!;
    }
  }
  return { width, height, rgb };
}
