/**
 * Value noise on a seeded lattice: 2D with analytic derivatives (terrain heights and their
 * normals in one evaluation) and 3D (anything defined on the direction sphere, so nothing
 * depends on the (u, v) parametrisation). Module-level tables are reseeded per render job;
 * hot loops call these functions millions of times, so they allocate nothing and return
 * derivatives through the shared `nd` array. Every 2D noise of the renderer, fractal sums
 * included (here and in terrain-noise.ts), evaluates the lattice through `latticeNoise2`.
 */
import { Rng } from "./prng.ts";

const SIZE = 1024;
/** Lattice coordinates wrap with this mask. */
const MASK = SIZE - 1;
const perm = new Int32Array(SIZE);
const vals = new Float64Array(SIZE);
/** The seed the tables hold: a job with another seed refills them (one job at a time per thread). */
let currentSeed = Number.NaN;

/** Value and derivatives of the last `noise2` call: [value, d/dx, d/dy]. */
export const nd = new Float64Array(3);

/** Reseeds the lattice (cheap; a no-op when the seed is unchanged). */
export function setNoiseSeed(seed: number): void {
  if (seed === currentSeed) return;
  currentSeed = seed;
  const rng = new Rng(seed);
  for (let i = 0; i < SIZE; i++) {
    perm[i] = i;
    vals[i] = rng.next() * 2 - 1;
  }
  for (let i = SIZE - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    const t = perm[i]!;
    perm[i] = perm[j]!;
    perm[j] = t;
  }
}
setNoiseSeed(0);

/**
 * 2D value noise in [-1, 1] at (x, y) into nd[0] and, with `gradient`, its derivatives
 * d/dx, d/dy into nd[1], nd[2]: the one evaluation of the 2D lattice. It returns nothing (a
 * double returned from a call that is not inlined costs a heap allocation) and stays under
 * V8's inlining size limit (460 bytes of bytecode): the hottest loops of the renderer
 * (terrain heights, clouds, ground texture) inline it, and a constant `gradient` folds away.
 */
export function latticeNoise2(x: number, y: number, gradient: boolean): void {
  // `fx & MASK` converts like `(fx | 0) & MASK`, for the same lattice cell.
  const fx = Math.floor(x);
  const fy = Math.floor(y);
  const tx = x - fx;
  const ty = y - fy;
  const ux = tx * tx * tx * (tx * (tx * 6 - 15) + 10);
  const uy = ty * ty * ty * (ty * (ty * 6 - 15) + 10);
  const p0 = perm[fx & MASK]!;
  const p1 = perm[(fx + 1) & MASK]!;
  const a = vals[(p0 + fy) & MASK]!;
  const k1 = vals[(p1 + fy) & MASK]! - a;
  const k2 = vals[(p0 + fy + 1) & MASK]! - a;
  const k3 = vals[(p1 + fy + 1) & MASK]! - a - k1 - k2;
  nd[0] = a + k1 * ux + k2 * uy + k3 * ux * uy;
  if (!gradient) return;
  nd[1] = 30 * tx * tx * (tx * (tx - 2) + 1) * (k1 + k3 * uy);
  nd[2] = 30 * ty * ty * (ty * (ty - 2) + 1) * (k2 + k3 * ux);
}

/** 2D value noise in [-1, 1] with its gradient, written into `nd`. */
export function noise2(x: number, y: number): void {
  latticeNoise2(x, y, true);
}

/** 2D value noise in [-1, 1], value only. */
export function value2(x: number, y: number): number {
  latticeNoise2(x, y, false);
  return nd[0]!;
}

/** 3D value noise in [-1, 1]. */
export function noise3(x: number, y: number, z: number): number {
  const fx = Math.floor(x);
  const fy = Math.floor(y);
  const fz = Math.floor(z);
  const ix = fx | 0;
  const iy = fy | 0;
  const iz = fz | 0;
  let tx = x - fx;
  let ty = y - fy;
  let tz = z - fz;
  tx = tx * tx * tx * (tx * (tx * 6 - 15) + 10);
  ty = ty * ty * ty * (ty * (ty * 6 - 15) + 10);
  tz = tz * tz * tz * (tz * (tz * 6 - 15) + 10);
  const p0 = perm[ix & MASK]!;
  const p1 = perm[(ix + 1) & MASK]!;
  const p00 = perm[(p0 + iy) & MASK]!;
  const p10 = perm[(p1 + iy) & MASK]!;
  const p01 = perm[(p0 + iy + 1) & MASK]!;
  const p11 = perm[(p1 + iy + 1) & MASK]!;
  const a = vals[(p00 + iz) & MASK]!;
  const b = vals[(p10 + iz) & MASK]!;
  const c = vals[(p01 + iz) & MASK]!;
  const d = vals[(p11 + iz) & MASK]!;
  const e = vals[(p00 + iz + 1) & MASK]!;
  const f = vals[(p10 + iz + 1) & MASK]!;
  const g = vals[(p01 + iz + 1) & MASK]!;
  const h = vals[(p11 + iz + 1) & MASK]!;
  const ab = a + (b - a) * tx;
  const cd = c + (d - c) * tx;
  const ef = e + (f - e) * tx;
  const gh = g + (h - g) * tx;
  const lo = ab + (cd - ab) * ty;
  const hi = ef + (gh - ef) * ty;
  return lo + (hi - lo) * tz;
}

/**
 * Fractal sum of 3D noise with a fractional octave count (the last octave fades in, so a
 * level of detail chosen from distance never pops). Roughly in [-1, 1].
 */
export function fbm3(x: number, y: number, z: number, octaves: number, gain = 0.5): number {
  let sum = 0;
  let amp = 0.5;
  let norm = 0;
  const full = Math.floor(octaves);
  for (let i = 0; i <= full; i++) {
    const w = i < full ? 1 : octaves - full;
    if (w <= 0) break;
    sum += w * amp * noise3(x, y, z);
    norm += w * amp;
    amp *= gain;
    // A rotation-like shuffle between octaves hides the lattice axes.
    const nx = 1.6 * x + 1.2 * z + 17.1;
    const nz = -1.2 * x + 1.6 * z + 3.7;
    x = nx;
    z = nz;
    y = y * 2 + 9.3;
  }
  return norm > 0 ? sum / norm : 0;
}

/**
 * Fractal sum of 2D noise (no derivatives), fractional octaves, roughly in [-1, 1].
 * With `floor`, the sum stops as soon as the octaves left (each at most its amplitude)
 * cannot lift it above `floor`, and returns a value <= floor: callers that only need to
 * know "at most floor" (clear sky between clouds) skip the fine octaves there.
 */
export function fbm2(x: number, y: number, octaves: number, gain = 0.5, floor = -Infinity): number {
  const norm = fbmNorm(octaves, gain);
  return norm > 0 ? fbm2Octaves(x, y, 0, octaves, gain, norm, floor * norm) / norm : 0;
}

/** Total weight of fbm2's octaves (what its sum is divided by). */
export function fbmNorm(octaves: number, gain: number): number {
  const full = Math.floor(octaves);
  const last = octaves - full;
  let norm = 0;
  let amp = 0.5;
  for (let i = 0; i < full; i++, amp *= gain) norm += amp;
  return norm + last * amp;
}

/*
 * A 2D fractal sum's octave i samples the noise at A^i (x, y) (+ B_i in fbm2), A being the
 * octaves' rotation-scaling step [[1.6, -1.2], [1.2, 1.6]] and B the offsets fbm2 adds.
 * These tables let a sum start at any octave.
 */
const STEPS = 24;
/** A^i, row-major 2x2 each (terrain-noise.ts' sums use them too). */
export const OCTAVE_STEPS = new Float64Array(STEPS * 4);
const STEP_B = new Float64Array(STEPS * 2);
for (let i = 0, a = [1, 0, 0, 1], b = [0, 0]; i < STEPS; i++) {
  OCTAVE_STEPS.set(a, i * 4);
  STEP_B.set(b, i * 2);
  a = [1.6 * a[0]! - 1.2 * a[2]!, 1.6 * a[1]! - 1.2 * a[3]!, 1.2 * a[0]! + 1.6 * a[2]!, 1.2 * a[1]! + 1.6 * a[3]!];
  b = [1.6 * b[0]! - 1.2 * b[1]! + 5.3, 1.2 * b[0]! + 1.6 * b[1]! + 11.9];
}
const STEP_A = OCTAVE_STEPS;

/**
 * The weighted sum of fbm2's octaves [from, octaves) at (x0, y0) (fbm2 = the sum from 0,
 * divided by fbmNorm): a texture can take its coarse octaves from a grid and add the fine
 * ones. With `stop`, `left` being the weight of those octaves, the sum stops once it
 * cannot exceed `stop`, returning a bound <= stop.
 */
export function fbm2Octaves(x0: number, y0: number, from: number, octaves: number, gain: number, left = 0, stop = -Infinity): number {
  // Small enough for V8 to inline into its callers: the floats reach the loop in memory,
  // not as arguments (a call with floats allocates a heap number for each).
  args[0] = x0;
  args[1] = y0;
  args[2] = octaves;
  args[3] = gain;
  args[4] = left;
  args[5] = stop;
  octaveSum(from);
  return args[6]!;
}

/** fbm2Octaves' floats (x0, y0, octaves, gain, left, stop) and its result. */
const args = new Float64Array(7);

function octaveSum(from: number): void {
  const x0 = args[0]!;
  const y0 = args[1]!;
  const octaves = args[2]!;
  const gain = args[3]!;
  let left = args[4]!;
  const stop = args[5]!;
  args[6] = 0;
  const full = Math.floor(octaves);
  const last = octaves - full;
  const count = last > 0 ? full + 1 : full;
  if (from >= count) return;
  let x = from === 0 ? x0 : STEP_A[from * 4]! * x0 + STEP_A[from * 4 + 1]! * y0 + STEP_B[from * 2]!;
  let y = from === 0 ? y0 : STEP_A[from * 4 + 2]! * x0 + STEP_A[from * 4 + 3]! * y0 + STEP_B[from * 2 + 1]!;
  let amp = from === 0 ? 0.5 : 0.5 * Math.pow(gain, from);
  let sum = 0;
  for (let i = from; i < count; i++) {
    latticeNoise2(x, y, false);
    const k = i < full ? amp : last * amp;
    sum += k * nd[0]!;
    left -= k;
    if (sum + left <= stop) {
      args[6] = sum + left;
      return;
    }
    amp *= gain;
    const nx = 1.6 * x - 1.2 * y + 5.3;
    y = 1.2 * x + 1.6 * y + 11.9;
    x = nx;
  }
  args[6] = sum;
}

/** A 32-bit hash of three integers, in [0, 1). For stars, windows and other sparse things. */
export function hash3(ix: number, iy: number, iz: number, salt: number): number {
  let h = Math.imul(ix, 0x27d4eb2d) ^ Math.imul(iy, 0x165667b1) ^ Math.imul(iz, 0x2c1b3c6d) ^ Math.imul(salt, 0x9e3779b1);
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}
