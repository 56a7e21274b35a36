/**
 * Distances of a stored skybox: the sky's stand-in distance and the 16-bit depth.png
 * encoding of distances (near = bright, logarithmic so near ground and far mountains both
 * get precision; the sky is 0 = black).
 */

import { DEPTH_FAR_M, DEPTH_NEAR_M, decodeDistance16, encodeDistance16 } from "../../../api/depth-encoding.ts";

/** Distance written for sky pixels (metres): larger than any surface the renderer draws. */
export const SKY_DISTANCE = DEPTH_FAR_M;
/** Distance that maps to full white in depth.png. */
export const DEPTH_NEAR = DEPTH_NEAR_M;

/** depth.png value (0..65535) of a distance (src/api/depth-encoding.ts). */
export const depthValue = encodeDistance16;

/** Inverse of `depthValue` (0 -> SKY_DISTANCE). */
export function distanceOfDepthValue(value: number): number {
  return value <= 0 ? SKY_DISTANCE : decodeDistance16(value);
}
