/**
 * IEEE 754 binary16 ("half") conversion for OpenEXR HALF channels.
 */

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** Largest finite half (65504): values above it are clamped instead of becoming infinity. */
export const HALF_MAX_BITS = 0x7bff;

/**
 * Bits of the half nearest to `value` (ties away from zero). Overflow clamps to +/-65504
 * because an infinite radiance would poison every filter that reads the file; NaN becomes 0.
 */
export function toHalfBits(value: number): number {
  f32[0] = value;
  return halfBitsOfFloatBits(u32[0]!);
}

/** `toHalfBits` of a float32 given by its bits (read through a Uint32Array view, no copy). */
export function halfBitsOfFloatBits(x: number): number {
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  const mant = x & 0x7fffff;
  if (exp === 0xff) return mant !== 0 ? 0 : sign | HALF_MAX_BITS;
  const e = exp - 127 + 15;
  if (e >= 31) return sign | HALF_MAX_BITS;
  if (e <= 0) {
    // Subnormal half (or zero): shift the mantissa with its implicit bit, then round.
    if (e < -10) return sign;
    const m = (mant | 0x800000) >>> (1 - e);
    return sign | ((m + 0x1000) >>> 13);
  }
  const half = sign | (e << 10) | (mant >>> 13);
  // Rounding carries into the exponent correctly; clamp a carry into infinity.
  const rounded = mant & 0x1000 ? half + 1 : half;
  return (rounded & 0x7fff) > HALF_MAX_BITS ? sign | HALF_MAX_BITS : rounded;
}

/** The number a half's bits stand for. */
export function fromHalfBits(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const e = (bits >>> 10) & 0x1f;
  const m = bits & 0x3ff;
  if (e === 0) return sign * m * 2 ** -24;
  if (e === 31) return m ? NaN : sign * Infinity;
  return sign * (1 + m / 1024) * 2 ** (e - 15);
}
