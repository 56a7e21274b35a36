/**
 * The equirectangular mapping used by every file of a stored skybox.
 *
 * Pixel (x, y) of a W x H panorama looks along the direction at azimuth
 * theta = (u - 0.5) * 2 pi and elevation phi = (0.5 - v) * pi, where u = (x + 0.5) / W and
 * v = (y + 0.5) / H. Direction = (sin theta cos phi, sin phi, -cos theta cos phi): the
 * centre of the image (u = 0.5) looks at -Z, u = 0.75 at +X, the top row at +Y.
 * Everything the renderer draws is a function of that 3D direction, so the left and
 * right edges meet without a seam and the poles do not pinch.
 */

/** Writes the unit direction of (u, v) into out[0..2]. */
export function directionOfUv(u: number, v: number, out: Float64Array | number[]): void {
  const theta = (u - 0.5) * 2 * Math.PI;
  const phi = (0.5 - v) * Math.PI;
  const c = Math.cos(phi);
  out[0] = Math.sin(theta) * c;
  out[1] = Math.sin(phi);
  out[2] = -Math.cos(theta) * c;
}

/** Azimuth (radians, 0 = -Z, +pi/2 = +X) of pixel column x. */
export function azimuthOfColumn(x: number, width: number): number {
  return ((x + 0.5) / width - 0.5) * 2 * Math.PI;
}

/** Elevation (radians, +pi/2 = zenith) of pixel row y. */
export function elevationOfRow(y: number, height: number): number {
  return (0.5 - (y + 0.5) / height) * Math.PI;
}

/** u (0..1, wraps) of a direction. */
export function uOfDirection(dx: number, dz: number): number {
  const u = Math.atan2(dx, -dz) / (2 * Math.PI) + 0.5;
  return u - Math.floor(u);
}

/** v (0..1) of a direction. */
export function vOfDirection(dy: number): number {
  return 0.5 - Math.asin(Math.max(-1, Math.min(1, dy))) / Math.PI;
}

/** Unit direction of an azimuth/elevation given in degrees. */
export function directionOfDegrees(azimuth: number, elevation: number): [number, number, number] {
  const t = (azimuth * Math.PI) / 180;
  const p = (elevation * Math.PI) / 180;
  return [Math.sin(t) * Math.cos(p), Math.sin(p), -Math.cos(t) * Math.cos(p)];
}

let trigWidth = 0;
let trig = { sin: new Float64Array(0), cos: new Float64Array(0) };

/** sin and cos of every column's azimuth for a width (cached for the last width asked). */
export function columnTrig(width: number): { sin: Float64Array; cos: Float64Array } {
  if (width !== trigWidth) {
    const sin = new Float64Array(width);
    const cos = new Float64Array(width);
    for (let x = 0; x < width; x++) {
      const t = azimuthOfColumn(x, width);
      sin[x] = Math.sin(t);
      cos[x] = Math.cos(t);
    }
    trig = { sin, cos };
    trigWidth = width;
  }
  return trig;
}
