/**
 * Linear radiance -> display bytes and back. The operator is exposure then the ACES
 * filmic fit (Narkowicz) then the sRGB transfer curve; it has a closed-form inverse so
 * that stylised display colours can be written back to the HDR radiance (tone-mapping
 * radiance.hdr with the scene's exposure reproduces image.jpg, but for a look's colours
 * near white, which stay below the shoulder: see LOOK_KNEE).
 */

/** ACES filmic fit, per channel, input >= 0, output 0..1. */
export function aces(x: number): number {
  const y = (x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14);
  return y > 1 ? 1 : y;
}

/** Inverse of `aces` for y in [0, 1); values near 1 map to the curve's bright end. */
export function acesInverse(y: number): number {
  if (y <= 0) return 0;
  const yy = y > 0.995 ? 0.995 : y;
  const a = 2.43 * yy - 2.51;
  const b = 0.59 * yy - 0.03;
  const c = 0.14 * yy;
  return (-b - Math.sqrt(b * b - 4 * a * c)) / (2 * a);
}

const ENCODE_STEPS = 16384;
/** sRGB encoded value (0..255, float) of linear display values on a fine grid. */
const encodeLut = new Float32Array(ENCODE_STEPS + 1);
for (let i = 0; i <= ENCODE_STEPS; i++) {
  const l = i / ENCODE_STEPS;
  encodeLut[i] = 255 * (l <= 0.0031308 ? 12.92 * l : 1.055 * Math.pow(l, 1 / 2.4) - 0.055);
}

/** Linear value of each sRGB byte. */
export const SRGB_TO_LINEAR = new Float32Array(256);
for (let i = 0; i < 256; i++) {
  const s = i / 255;
  SRGB_TO_LINEAR[i] = s <= 0.04045 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
}

/** sRGB encoding (0..255 float) of a linear display value in 0..1. */
export function srgbEncode(linear: number): number {
  if (!(linear > 0)) return 0;
  if (linear >= 1) return 255;
  const f = linear * ENCODE_STEPS;
  const i = f | 0;
  const a = encodeLut[i]!;
  return a + (encodeLut[i + 1]! - a) * (f - i);
}

/** Linear display value of an sRGB value given as 0..255 float. */
export function srgbDecode(value255: number): number {
  const s = value255 / 255;
  if (s <= 0) return 0;
  return s <= 0.04045 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
}

/** Display (sRGB 0..255 float) of a radiance value at an exposure, channel by channel. */
export function toneMapChannel(radiance: number, exposure: number): number {
  return srgbEncode(aces(radiance * exposure));
}

/**
 * Writes the display bytes (sRGB) of the RGB radiance rgb[ro..ro + 2] into
 * display[o..o + 2], dithered for pixel (px, py): half per-channel ACES (which rolls bright
 * colours off to white) and half hue-preserving ACES on luminance (which keeps a bright
 * sunset orange instead of bleaching it). The exposure comes in an object: a float
 * argument would cost an allocation per pixel.
 */
export function writeDisplay(
  rgb: Float32Array | Float64Array,
  ro: number,
  scene: { exposure: number },
  px: number,
  py: number,
  display: Uint8Array,
  o: number,
): void {
  displayValues(rgb, ro, scene, shown, 0);
  const d = dither(px, py);
  const r = shown[0]! + d;
  const g = shown[1]! + d;
  const b = shown[2]! + d;
  display[o] = r < 0 ? 0 : r > 255 ? 255 : r + 0.5;
  display[o + 1] = g < 0 ? 0 : g > 255 ? 255 : g + 0.5;
  display[o + 2] = b < 0 ? 0 : b > 255 ? 255 : b + 0.5;
}

const shown = new Float64Array(3);

/** The display values (sRGB 0..255 floats, before dithering) of rgb[ro..ro + 2] into out[o..o + 2]. */
export function displayValues(
  rgb: Float32Array | Float64Array,
  ro: number,
  scene: { exposure: number },
  out: Float64Array,
  o: number,
): void {
  const exposure = scene.exposure;
  const x = rgb[ro]! * exposure;
  const y = rgb[ro + 1]! * exposure;
  const z = rgb[ro + 2]! * exposure;
  const lum = 0.2126 * x + 0.7152 * y + 0.0722 * z;
  const k = lum > 1e-9 ? aces(lum) / lum : 1;
  const m = Math.max(x * k, y * k, z * k);
  // Colours pushed past white by the luminance curve fall back onto the per-channel one.
  const s = m > 1 ? k / m : k;
  out[o] = srgbEncode(0.5 * aces(x) + 0.5 * x * s);
  out[o + 1] = srgbEncode(0.5 * aces(y) + 0.5 * y * s);
  out[o + 2] = srgbEncode(0.5 * aces(z) + 0.5 * z * s);
}

/** Radiance that tone-maps to a display value (sRGB 0..255 float) at an exposure. */
export function inverseToneMapChannel(display255: number, exposure: number): number {
  return acesInverse(srgbDecode(display255)) / exposure;
}

/**
 * Linear display value above which a stylised colour's radiance follows the inverse
 * curve's tangent instead of its shoulder. Near white the shoulder turns a step of a few
 * levels into a large radiance step: a grade or posterize that lifts a blue sky of
 * radiance 0.55 (display 212) to 255 would make it 5.7, a skybox lighting a scene ten
 * times brighter than its photoreal twin. Along the tangent from 0.6 (display 203) white
 * is 1.05: a look's white is a bright colour, not a clipped highlight.
 */
const LOOK_KNEE = 0.6;
const kneeRadiance = acesInverse(LOOK_KNEE);
const kneeSlope = (acesInverse(LOOK_KNEE + 1e-4) - acesInverse(LOOK_KNEE - 1e-4)) / 2e-4;

/** Radiance (at exposure 1) of a colour a look made, from its linear display value. */
function lookRadiance(linear: number): number {
  return linear <= LOOK_KNEE ? acesInverse(linear) : kneeRadiance + (linear - LOOK_KNEE) * kneeSlope;
}

/** lookRadiance(srgbDecode(v)) for v = i / STEPS_PER_LEVEL, up to 255. */
const STEPS_PER_LEVEL = 16;
const lookLut = new Float64Array(255 * STEPS_PER_LEVEL + 2);
for (let i = 0; i < lookLut.length; i++) lookLut[i] = lookRadiance(srgbDecode(Math.min(255, i / STEPS_PER_LEVEL)));

/**
 * Radiance times the exposure of a display value (sRGB 0..255 float) a look made: the
 * inverse tone map below the knee, its tangent above. From a table (finishing calls it
 * for every channel of every stylised pixel; the curve is smooth, so the table is
 * interpolated 16 steps a display level).
 */
export function lookRadianceScaled(display255: number): number {
  const f = (display255 <= 0 ? 0 : display255 >= 255 ? 255 : display255) * STEPS_PER_LEVEL;
  const i = f | 0;
  const a = lookLut[i]!;
  return a + (lookLut[i + 1]! - a) * (f - i);
}

/** A small deterministic dither in [-0.5, 0.5) for pixel (x, y), to hide 8-bit banding. */
export function dither(x: number, y: number): number {
  let h = Math.imul(x, 0x27d4eb2d) ^ Math.imul(y, 0x165667b1);
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  h ^= h >>> 13;
  return (h >>> 0) / 4294967296 - 0.5;
}
