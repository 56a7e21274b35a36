/**
 * Distances of a stored skybox: the sky's stand-in distance and the 16-bit depth.png
 * encoding of distances (near = bright, logarithmic so near ground and far mountains both
 * get precision; the sky is 0 = black).
 */

/** Distance written for sky pixels (metres): larger than any surface the renderer draws. */
export const SKY_DISTANCE = 1_000_000;
/** Distance that maps to full white in depth.png. */
export const DEPTH_NEAR = 0.5;

const LOG_RANGE = Math.log(SKY_DISTANCE / DEPTH_NEAR);

/** depth.png value (0..65535) of a distance: 65535 * (1 - ln(d / near) / ln(sky / near)). */
export function depthValue(distance: number): number {
  if (!(distance < SKY_DISTANCE)) return 0;
  const d = distance < DEPTH_NEAR ? DEPTH_NEAR : distance;
  const v = Math.round(65535 * (1 - Math.log(d / DEPTH_NEAR) / LOG_RANGE));
  return v < 1 ? 1 : v > 65535 ? 65535 : v;
}

/** Inverse of `depthValue` (0 -> SKY_DISTANCE). */
export function distanceOfDepthValue(value: number): number {
  if (value <= 0) return SKY_DISTANCE;
  return DEPTH_NEAR * Math.exp((1 - value / 65535) * LOG_RANGE);
}
