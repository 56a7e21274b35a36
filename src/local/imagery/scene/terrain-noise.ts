/**
 * Fractal height noise with analytic gradients, in world units: plain fBm for soft relief
 * and Quilez's "erosion" fBm (each octave damped by the slope accumulated so far), which
 * gives ridges, gullies and flat valley floors. Gradients feed the surface normals.
 */
import { nd, noise2 } from "../math/noise.ts";

/** Gradient (d/dx, d/dz) of the last fbmGrad / erosionGrad call, per world unit. */
export const fg = new Float64Array(2);

/**
 * Fractional-octave fBm of 2D value noise at (x, z) * invL (+ offset), roughly in [-1, 1].
 * `erosion` damps each octave by 1 / (1 + |sum of derivatives|^2).
 */
export function fractalGrad(x: number, z: number, invL: number, ox: number, oz: number, octaves: number, erosion: boolean): number {
  let qx = x * invL + ox;
  let qz = z * invL + oz;
  let m00 = invL;
  let m01 = 0;
  let m10 = 0;
  let m11 = invL;
  let sum = 0;
  let amp = 0.5;
  let ax = 0;
  let az = 0;
  let gx = 0;
  let gz = 0;
  const full = Math.floor(octaves);
  for (let i = 0; i <= full; i++) {
    const w = i < full ? 1 : octaves - full;
    if (w <= 0) break;
    noise2(qx, qz);
    const n = nd[0]!;
    const ndx = nd[1]!;
    const ndz = nd[2]!;
    let k = w * amp;
    if (erosion) {
      ax += ndx;
      az += ndz;
      k /= 1 + ax * ax + az * az;
    }
    sum += k * n;
    gx += k * (ndx * m00 + ndz * m10);
    gz += k * (ndx * m01 + ndz * m11);
    amp *= 0.5;
    const nqx = 1.6 * qx - 1.2 * qz;
    qz = 1.2 * qx + 1.6 * qz;
    qx = nqx;
    const n00 = 1.6 * m00 - 1.2 * m10;
    const n01 = 1.6 * m01 - 1.2 * m11;
    m10 = 1.2 * m00 + 1.6 * m10;
    m11 = 1.2 * m01 + 1.6 * m11;
    m00 = n00;
    m01 = n01;
  }
  fg[0] = gx;
  fg[1] = gz;
  return sum;
}
