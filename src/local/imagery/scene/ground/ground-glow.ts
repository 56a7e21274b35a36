/**
 * Light the ground gives off: street lights of a city at night, and the glowing grid of
 * the neon look. Both are anti-aliased by the pixel footprint (m per pixel).
 */

/** Street lights along the lot grid's streets (average brightness once they are sub-pixel). */
export function streetLights(px: number, pz: number, footprint: number): number {
  const lot = 55;
  const fx = Math.abs(px / lot - Math.round(px / lot)) * lot;
  const fz = Math.abs(pz / lot - Math.round(pz / lot)) * lot;
  const w = Math.max(2, footprint);
  const near = Math.max(Math.exp(-fx / w), Math.exp(-fz / w));
  return footprint > lot / 3 ? 0.25 : near * 0.8 + 0.1;
}

/**
 * Synthwave grid lines every 60 m, and fainter ones every 6 m on the ground round the camera
 * (where objects stand: the 60 m cell the camera stands in has no line within 30 m), faded
 * out where their pixels pass 1.5 m. Anti-aliased by the pixel footprint.
 */
export function addGrid(px: number, pz: number, footprint: number, out: Float64Array): void {
  const minor = footprint < 1.5 ? 0.35 * (1 - footprint / 1.5) * gridLine(px, pz, footprint, 6, 0.08) : 0;
  const line = gridLine(px, pz, footprint, 60, 0.6) + minor;
  out[0]! += line * 0.55;
  out[1]! += line * 0.08;
  out[2]! += line * 0.75;
}

/** Brightness of grid lines `g` metres apart and `width` wide at (px, pz), for a pixel `footprint` metres across. */
function gridLine(px: number, pz: number, footprint: number, g: number, width: number): number {
  const w = Math.max(width, footprint);
  // Offset by half a cell so that the camera stands between lines.
  const qx = px / g + 0.5;
  const qz = pz / g + 0.5;
  const fx = Math.abs(qx - Math.round(qx)) * g;
  const fz = Math.abs(qz - Math.round(qz)) * g;
  const avg = Math.min(1, (2 * width) / (w * 1.5 + 1e-3)) * 0.9;
  return footprint > g / 4
    ? Math.min(1, (2 * w) / g) * 0.5
    : Math.max(Math.exp(-fx / w), Math.exp(-fz / w)) * avg + 0.04 * (Math.exp(-fx / (w * 6)) + Math.exp(-fz / (w * 6)));
}
