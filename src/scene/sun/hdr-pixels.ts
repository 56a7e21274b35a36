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
