/**
 * Where each point of an equirectangular panorama looks: the one convention of the files
 * the local service renders, of its exporters and of the browser-built backdrop.
 *
 * Panorama coordinates: u (0..1) across the width, v (0..1) down the height; pixel i of a
 * row of `size` pixels has its centre at (i + 0.5) / size.
 *   u = 0.5 looks straight ahead, u = 0.75 to the right, u = 0 and 1 behind;
 *   v = 0 is the zenith, 0.5 the horizon, 1 the nadir.
 * In degrees, as the API's edit centre names a point: longitude (center_x) = (u - 0.5) * 360,
 * -180..180 growing with u; latitude (center_y) = (0.5 - v) * 180, -90..90, positive up.
 *
 * Directions are in a right-handed frame with +Y up (glTF's): straight ahead is -Z, the
 * right is +X. With azimuth a = (u - 0.5) * 2 pi and elevation e = (0.5 - v) * pi,
 * direction = (sin a cos e, sin e, -cos a cos e). Everything the renderer draws is a
 * function of that 3D direction, so the left and right edges meet without a seam.
 *
 * Babylon's frame is left-handed: a Babylon direction is (x, y, -z) of ours, so the
 * panorama's middle lands on Babylon's +Z, the default camera's view, with u = 0.75 on its
 * right (+X). That is what `EquiRectangularCubeTexture`, `HDRCubeTexture` and `PhotoDome`
 * do with the same file, and what a glTF loaded by Babylon shows (its root converts
 * handedness), so every export lines up in Babylon with no extra rotation.
 */

/** Azimuth (radians, 0 straight ahead at -Z, +pi/2 at +X) of panorama u. */
export function azimuthOfU(u: number): number {
  return (u - 0.5) * 2 * Math.PI;
}

/** Elevation (radians, +pi/2 at the zenith) of panorama v. */
export function elevationOfV(v: number): number {
  return (0.5 - v) * Math.PI;
}

/** Latitude (degrees, -90..90, positive up) of panorama v. */
export function latitudeOfV(v: number): number {
  return (0.5 - v) * 180;
}

/** Panorama v of a latitude in degrees. */
export function vOfLatitude(latitude: number): number {
  return 0.5 - latitude / 180;
}

/** Writes the unit direction of panorama (u, v) into out[o..o + 2]. */
export function directionOfUv(u: number, v: number, out: Float64Array | Float32Array | number[], o = 0): void {
  const azimuth = azimuthOfU(u);
  const elevation = elevationOfV(v);
  const c = Math.cos(elevation);
  out[o] = Math.sin(azimuth) * c;
  out[o + 1] = Math.sin(elevation);
  out[o + 2] = -Math.cos(azimuth) * c;
}

/** Unit direction of a longitude and latitude in degrees (the API's center_x, center_y). */
export function directionOfDegrees(longitude: number, latitude: number): [number, number, number] {
  const a = (longitude * Math.PI) / 180;
  const e = (latitude * Math.PI) / 180;
  return [Math.sin(a) * Math.cos(e), Math.sin(e), -Math.cos(a) * Math.cos(e)];
}

/** Panorama u (0..1) of a direction (need not be unit length; y plays no part). */
export function uOfDirection(x: number, z: number): number {
  const u = Math.atan2(x, -z) / (2 * Math.PI) + 0.5;
  return u >= 1 ? u - 1 : u;
}

/** Panorama v (0..1) of a unit direction, from its y (the sine of its elevation). */
export function vOfDirection(y: number): number {
  return 0.5 - Math.asin(Math.max(-1, Math.min(1, y))) / Math.PI;
}
