/**
 * The five HDRI modes: each a fixed, per-pixel mapping of the stored linear radiance
 * (so an export streams in rows and the same input always gives the same file).
 * L = Rec. 709 luminance (0.2126 R + 0.7152 G + 0.0722 B); "chroma" = RGB - L.
 *
 * | mode      | intent                                  | mapping                                                                                          |
 * |-----------|-----------------------------------------|--------------------------------------------------------------------------------------------------|
 * | realism   | physically based lighting (default)     | identity: the radiance as rendered, sun and all                                                  |
 * | artistic  | punchy, saturated look                  | chroma x 1.35; L -> 0.18 (L / 0.18)^1.15 (contrast around middle grey; the sun gets brighter)    |
 * | studio    | neutral, soft product lighting          | chroma x 0.25; L -> 0.02 + L below 2, above it compressed softly to at most 2 + 6 (sun ~ 7.7)    |
 * | interior  | warm, low dynamic range indoor light    | RGB x (1.10, 1.00, 0.82); L -> L^0.75 (ratios shrink); L clamped at 6 (the sun becomes a lamp)     |
 * | space     | dark sky, bright point lights           | L x 0.12 for dim pixels rising smoothly to x 2.5 from L = 4 up; slight blue shift (0.92, 0.96, 1.1) |
 *
 * Luminance changes scale RGB by L'/L, so hue is kept (apart from the stated tints).
 * Results are clamped at 0: saturation boosts must not make negative radiance.
 */
import type { HdriModeKey } from "../../../../api/reference.ts";

type PixelMap = (r: number, g: number, b: number, out: Float32Array, o: number) => void;

const luminance = (r: number, g: number, b: number): number => 0.2126 * r + 0.7152 * g + 0.0722 * b;

/** Writes (L + (c - L) * chroma) * gain per channel, clamped at 0. */
function write(r: number, g: number, b: number, l: number, chroma: number, gain: number, out: Float32Array, o: number): void {
  out[o] = Math.max(0, (l + (r - l) * chroma) * gain);
  out[o + 1] = Math.max(0, (l + (g - l) * chroma) * gain);
  out[o + 2] = Math.max(0, (l + (b - l) * chroma) * gain);
}

const MODES: Record<HdriModeKey, PixelMap> = {
  realism(r, g, b, out, o) {
    out[o] = r;
    out[o + 1] = g;
    out[o + 2] = b;
  },
  artistic(r, g, b, out, o) {
    const l = luminance(r, g, b);
    if (l <= 0) return write(r, g, b, 0, 1, 1, out, o);
    const target = 0.18 * Math.pow(l / 0.18, 1.15);
    write(r, g, b, l, 1.35, target / l, out, o);
  },
  studio(r, g, b, out, o) {
    const l = luminance(r, g, b);
    const knee = 2;
    const lifted = l + 0.02;
    const target = lifted <= knee ? lifted : knee + (lifted - knee) / (1 + (lifted - knee) / 6);
    if (l <= 0) return write(0.02, 0.02, 0.02, 0.02, 1, 1, out, o);
    write(r, g, b, l, 0.25, target / l, out, o);
  },
  interior(r, g, b, out, o) {
    const wr = r * 1.1,
      wg = g,
      wb = b * 0.82;
    const l = luminance(wr, wg, wb);
    if (l <= 0) return write(0, 0, 0, 0, 1, 1, out, o);
    const target = Math.min(Math.pow(l, 0.75), 6);
    write(wr, wg, wb, l, 1, target / l, out, o);
  },
  space(r, g, b, out, o) {
    const cr = r * 0.92,
      cg = g * 0.96,
      cb = b * 1.1;
    const l = luminance(cr, cg, cb);
    const t = Math.min(Math.max((l - 0.5) / 3.5, 0), 1);
    const gain = 0.12 + (2.5 - 0.12) * t * t * (3 - 2 * t); // smoothstep from L 0.5 to 4
    write(cr, cg, cb, l, 1, gain, out, o);
  },
};

/** Applies `mode` in place to a row of linear RGB floats. */
export function applyHdriMode(mode: HdriModeKey, rgb: Float32Array): void {
  const map = MODES[mode];
  if (mode === "realism") return;
  for (let i = 0; i < rgb.length; i += 3) map(rgb[i]!, rgb[i + 1]!, rgb[i + 2]!, rgb, i);
}
