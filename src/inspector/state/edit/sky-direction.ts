/**
 * Directions on the skybox as the Edit request names them, in Babylon's frame: the
 * panorama convention of src/api/panorama with z negated (Babylon is left-handed), so the
 * panorama's middle column u = 0.5 is at +Z and u grows towards +X, and the top row is +Y. The API's `center_x` is the longitude
 * (−180..180, 0 = the panorama's middle, growing with u) and `center_y` the latitude
 * (−90..90, positive up).
 *
 * `rotation` is the skybox's rotation around Y as `applySkybox` takes it: the content that
 * was at yaw θ is shown at yaw 0, so the world yaw ψ shows the panorama's longitude ψ + θ.
 */
import { directionOfDegrees, latitudeOfV, uOfDirection, vOfDirection } from "../../../api/panorama/panorama-directions.ts";
import type { SkyAngles } from "../form/generate-form.ts";

export interface Direction {
  x: number;
  y: number;
  z: number;
}

const RAD_TO_DEG = 180 / Math.PI;

/** An angle in degrees brought into −180..180. */
export function wrapDegrees(deg: number): number {
  const w = ((((deg + 180) % 360) + 360) % 360) - 180;
  return w === -180 && deg > 0 ? 180 : w;
}

/**
 * Longitude and latitude of the panorama point seen along a world direction.
 * @param d a world direction (need not be normalised)
 * @param rotation the skybox's rotation around Y, radians
 */
export function anglesOfDirection(d: Direction, rotation = 0): SkyAngles {
  const length = Math.hypot(d.x, d.y, d.z) || 1;
  const lat = latitudeOfV(vOfDirection(d.y / length));
  // Straight up or down has no longitude: call it the middle.
  const lon = Math.abs(lat) > 89.999 ? 0 : wrapDegrees((uOfDirection(d.x, -d.z) - 0.5) * 360 + rotation * RAD_TO_DEG);
  return { lon, lat };
}

/**
 * The unit world direction where a panorama point is shown.
 * @param a longitude and latitude, degrees
 * @param rotation the skybox's rotation around Y, radians
 */
export function directionOfAngles(a: SkyAngles, rotation = 0): Direction {
  const [x, y, z] = directionOfDegrees(a.lon - rotation * RAD_TO_DEG, a.lat);
  return { x, y, z: -z };
}
