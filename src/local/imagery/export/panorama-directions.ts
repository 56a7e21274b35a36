/**
 * Where each point of an equirectangular panorama looks: the one axis convention of every
 * exporter (and of the renderer, per `RenderRequest.edit`).
 *
 * Right-handed, +Y up (glTF's frame):
 *   u (0..1 across the width): u = 0.5 looks straight ahead at -Z, u = 0.75 at +X (right),
 *     u = 0.25 at -X (left), u = 0 and 1 behind (+Z). Longitude phi = (u - 0.5) * 2 pi.
 *   v (0..1 down the height): v = 0 zenith (+Y), 0.5 horizon, 1 nadir. Polar theta = v pi.
 *   direction = (sin theta sin phi, cos theta, -sin theta cos phi).
 *
 * Babylon's frame is left-handed: a Babylon direction is (x, y, -z) of ours, so the
 * panorama centre lands on Babylon's +Z, the default camera's view, with u = 0.75 on its
 * right (+X). That is exactly what `EquiRectangularCubeTexture`, `HDRCubeTexture` and
 * `PhotoDome` do with the same file, and what a glTF loaded by Babylon shows (its root
 * converts handedness), so every export lines up in Babylon with no extra rotation.
 */

/** Unit direction (ours) of panorama coordinates (u, v), written to `out` at `o`. */
export function uvToDirection(u: number, v: number, out: Float64Array | Float32Array, o = 0): void {
  const phi = (u - 0.5) * 2 * Math.PI;
  const theta = v * Math.PI;
  const s = Math.sin(theta);
  out[o] = s * Math.sin(phi);
  out[o + 1] = Math.cos(theta);
  out[o + 2] = -s * Math.cos(phi);
}

/** u (0..1) of a direction (need not be unit length). */
export function directionToU(x: number, _y: number, z: number): number {
  const u = Math.atan2(x, -z) / (2 * Math.PI) + 0.5;
  return u >= 1 ? u - 1 : u;
}

/** v (0..1) of a direction (need not be unit length). */
export function directionToV(x: number, y: number, z: number): number {
  return Math.atan2(Math.sqrt(x * x + z * z), y) / Math.PI;
}
