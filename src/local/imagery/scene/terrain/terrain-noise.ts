/**
 * Fractal height noise with analytic gradients, in world units: plain fBm for soft relief
 * and Quilez's "erosion" fBm (each octave damped by the slope accumulated so far), which
 * gives ridges, gullies and flat valley floors. Gradients feed the surface normals.
 */
import { latticeNoise2, nd, OCTAVE_STEPS } from "../../math/noise.ts";

/** Gradient (d/dx, d/dz) of the last fractalGrad call, per world unit, and its value. */
export const fg = new Float64Array(3);
/**
 * 1 when callers want fg's gradient; 0 while heights alone will do (the column march:
 * terrain.ts' terrainHeightOnly), which skips a third of each octave's work.
 */
export const fgWanted = new Uint8Array([1]);
/** fractalGrad's float arguments, handed to fractalSum in memory. */
const args = new Float64Array(6);

/** R^i, R being the octaves' rotation-scaling step (row-major 2x2): fbm2's steps, without its offsets. */
const POWERS = OCTAVE_STEPS;

/**
 * Fractional-octave fBm of 2D value noise at (x, z) * invL (+ offset), roughly in [-1, 1].
 * `erosion` damps each octave by 1 / (1 + |sum of derivatives|^2). Without erosion the
 * octaves are independent, and `from` skips the first ones (a texture can take its coarse
 * octaves from a grid and add the fine ones).
 */
export function fractalGrad(
  x: number,
  z: number,
  invL: number,
  ox: number,
  oz: number,
  octaves: number,
  erosion: boolean,
  from = 0,
): number {
  // Small enough for V8 to inline into its callers: the float arguments of the loop below
  // then never become heap numbers (a call with floats allocates one for each).
  args[0] = x;
  args[1] = z;
  args[2] = invL;
  args[3] = ox;
  args[4] = oz;
  args[5] = octaves;
  fractalSum(erosion, from);
  return fg[2]!;
}

function fractalSum(erosion: boolean, from: number): void {
  const x = args[0]!;
  const z = args[1]!;
  const invL = args[2]!;
  const ox = args[3]!;
  const oz = args[4]!;
  const octaves = args[5]!;
  const r = from * 4;
  const x0 = x * invL + ox;
  const z0 = z * invL + oz;
  let qx = from === 0 ? x0 : POWERS[r]! * x0 + POWERS[r + 1]! * z0;
  let qz = from === 0 ? z0 : POWERS[r + 2]! * x0 + POWERS[r + 3]! * z0;
  // d(q)/d(x, z) of the current octave: invL times the octaves' rotation-scalings so far.
  let m00 = POWERS[r]! * invL;
  let m01 = POWERS[r + 1]! * invL;
  let m10 = POWERS[r + 2]! * invL;
  let m11 = POWERS[r + 3]! * invL;
  let sum = 0;
  let amp = 0.5 / (1 << from);
  let ax = 0;
  let az = 0;
  let gx = 0;
  let gz = 0;
  const full = Math.floor(octaves);
  const last = octaves - full;
  const count = last > 0 ? full + 1 : full;
  const gradient = fgWanted[0] === 1;
  for (let i = from; i < count; i++) {
    latticeNoise2(qx, qz, gradient || erosion);
    const n = nd[0]!;
    let k = i < full ? amp : last * amp;
    amp *= 0.5;
    const nqx = 1.6 * qx - 1.2 * qz;
    qz = 1.2 * qx + 1.6 * qz;
    qx = nqx;
    if (!gradient && !erosion) {
      sum += k * n;
      continue;
    }
    const ndx = nd[1]!;
    const ndz = nd[2]!;
    if (erosion) {
      ax += ndx;
      az += ndz;
      k /= 1 + ax * ax + az * az;
    }
    sum += k * n;
    if (!gradient) continue;
    gx += k * (ndx * m00 + ndz * m10);
    gz += k * (ndx * m01 + ndz * m11);
    const n00 = 1.6 * m00 - 1.2 * m10;
    const n01 = 1.6 * m01 - 1.2 * m11;
    m10 = 1.2 * m00 + 1.6 * m10;
    m11 = 1.2 * m01 + 1.6 * m11;
    m00 = n00;
    m01 = n01;
  }
  fg[0] = gx;
  fg[1] = gz;
  fg[2] = sum;
}
