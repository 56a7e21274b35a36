/**
 * How a 16-bit depth map stores true distance: logarithmic, near = bright, sky = black.
 *
 *   v = round(65535 * (1 - ln(d / NEAR) / ln(FAR / NEAR))), clamped to 1..65535 for surfaces
 *   v = 0 for the sky (d >= FAR)
 *   d = NEAR * (FAR / NEAR) ^ (1 - v / 65535)
 *
 * NEAR = 0.5 m (white) and FAR = 1,000,000 m, the local renderer's sky distance. The
 * local service writes depth maps (depth.png and the depth-map export) with it and the
 * browser reads them back with it, so both agree value for value. A log scale gives every distance
 * the same relative precision: one step is 0.022 % of the distance, from the ground at
 * one's feet to the horizon, which a 1/d or linear scale cannot do with 16 bits.
 */

export const DEPTH_NEAR_M = 0.5;
/** The far end of the depth scale in metres (depth value 0, the sky); see the encoding above. */
export const DEPTH_FAR_M = 1_000_000;
const LOG_RANGE = /* @__PURE__ */ Math.log(DEPTH_FAR_M / DEPTH_NEAR_M);

/** The 16-bit value of a distance in metres (the sky, non-finite or >= FAR: 0). */
export function encodeDistance16(metres: number): number {
  if (!(metres < DEPTH_FAR_M)) return 0;
  const d = metres > DEPTH_NEAR_M ? metres : DEPTH_NEAR_M;
  const v = Math.round(65535 * (1 - Math.log(d / DEPTH_NEAR_M) / LOG_RANGE));
  return v < 1 ? 1 : v > 65535 ? 65535 : v;
}

/** The distance in metres a 16-bit value stands for (0: the sky, FAR). */
export function decodeDistance16(value: number): number {
  return DEPTH_NEAR_M * Math.exp(LOG_RANGE * (1 - value / 65535));
}

/** A human-readable statement of the encoding, stored in the PNG's tEXt chunk. */
export const DEPTH_ENCODING_TEXT =
  `distance_m = ${DEPTH_NEAR_M} * (${DEPTH_FAR_M} / ${DEPTH_NEAR_M}) ^ (1 - value / 65535); ` + "65535 = nearest, 0 = sky";

/**
 * Radius of a backdrop vertex, as a fraction of the sky's radius, for a depth value: the
 * relief of the GLB export and of the browser-built Model 4 backdrop alike.
 * r = 1 - (depthScale / 12) * nearness, nearness = value / 65535 (0 for the sky): with the
 * spec's depth_scale 3..10, the nearest things come in by a quarter to five sixths.
 */
export function backdropRadius(value: number, depthScale: number): number {
  return 1 - (depthScale / 12) * (value / 65535);
}
