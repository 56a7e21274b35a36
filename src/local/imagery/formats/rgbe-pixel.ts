/**
 * One RGBE pixel <-> three linear floats (Ward's shared-exponent encoding).
 *
 * Encoding rounds each mantissa to the nearest step (and clamps the largest channel at
 * 255) so that decoders without Radiance's "+0.5" bias, such as Babylon's and ours, read
 * back the nearest representable value. Decoding is `byte * 2^(e - 136)`, exactly what
 * Babylon's `RGBE_ReadPixels` does, so both readers agree bit for bit.
 */

/** 2^(k - POW2_BIAS) for every exponent an RGBE byte or a float32 can produce. */
const POW2_BIAS = 300;
const POW2 = new Float64Array(600);
for (let k = 0; k < POW2.length; k++) POW2[k] = Math.pow(2, k - POW2_BIAS);

// A shared float32/uint32 view reads the binary exponent without Math.log2 (fast frexp).
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** Largest value RGBE can hold (exponent byte 255, mantissa 255). */
export const RGBE_MAX = 255 * Math.pow(2, 255 - 136);

/**
 * Writes the RGBE bytes of one pixel into four channel planes of `out` (RLE scanline
 * layout: all R, then all G, then all B, then all E), at index `x`.
 */
export function floatToRgbePlanar(r: number, g: number, b: number, out: Uint8Array, x: number, width: number): void {
  let m = r > g ? r : g;
  if (b > m) m = b;
  if (!(m > 1e-32)) {
    out[x] = out[x + width] = out[x + 2 * width] = out[x + 3 * width] = 0;
    return;
  }
  if (m > RGBE_MAX) {
    const k = RGBE_MAX / m;
    r *= k;
    g *= k;
    b *= k;
    m = RGBE_MAX;
  }
  f32[0] = m;
  // frexp: m = mantissa * 2^e with mantissa in [0.5, 1).
  let e = ((u32[0]! >>> 23) & 0xff) - 126;
  // Rounding m to float32 may push it over a power of two; the float64 value decides.
  if (m >= POW2[e + POW2_BIAS]!) e++;
  const scale = POW2[8 - e + POW2_BIAS]!;
  // Scaled channels are in (-256, 256): +0.5 and truncation round them; negatives become 0.
  const rq = (r * scale + 0.5) | 0;
  const gq = (g * scale + 0.5) | 0;
  const bq = (b * scale + 0.5) | 0;
  out[x] = rq > 255 ? 255 : rq < 0 ? 0 : rq;
  out[x + width] = gq > 255 ? 255 : gq < 0 ? 0 : gq;
  out[x + 2 * width] = bq > 255 ? 255 : bq < 0 ? 0 : bq;
  out[x + 3 * width] = e + 128;
}

/** The multiplier of an exponent byte: value = mantissa byte * rgbeScale(e); 0 for e = 0. */
export function rgbeScale(e: number): number {
  return e === 0 ? 0 : POW2[e - 136 + POW2_BIAS]!;
}

/**
 * Writes the RGBE bytes of one pixel at bytes[o..o + 3] (interleaved: R, G, B, E), the
 * form a render keeps its radiance in (render-buffers.ts).
 */
export function writeRgbe(r: number, g: number, b: number, bytes: Uint8Array, o: number): void {
  floatToRgbePlanar(r, g, b, bytes, o, 1);
}

/** Reads the interleaved RGBE pixel at bytes[o..o + 3] into out[oo..oo + 2]. */
export function readRgbe(bytes: Uint8Array, o: number, out: { [index: number]: number }, oo = 0): void {
  const f = rgbeScale(bytes[o + 3]!);
  out[oo] = bytes[o]! * f;
  out[oo + 1] = bytes[o + 1]! * f;
  out[oo + 2] = bytes[o + 2]! * f;
}
