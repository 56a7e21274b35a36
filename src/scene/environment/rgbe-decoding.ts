/**
 * Radiance `.hdr` (RGBE) pixels to linear float RGB, a few scanlines at a time: Babylon's
 * reader decodes the whole picture in one call (about a second for a 4K panorama on a slow
 * core). The same header reader, the same run-length rules and the same conversion, yielding
 * between scanlines once the slice is spent, so the floats equal Babylon's.
 */
import { RGBE_ReadHeader } from "@babylonjs/core/Misc/HighDynamicRange/hdr.js";
import { timedStep } from "../scheduling/step-timing.ts";
import type { WorkSlices } from "../scheduling/work-slices.ts";

/** A decoded panorama, rows from the top. */
export interface RgbePanorama {
  width: number;
  height: number;
  /** RGB floats, 3 a pixel. */
  data: Float32Array;
}

/** 2^(e - 136) for each exponent byte: RGBE's mantissas are bytes, the exponent biased by 128 (Babylon's Rgbe2float). */
const SCALE = Float64Array.from({ length: 256 }, (_, e) => (e > 0 ? Math.pow(2, e - 136) : 0));

/**
 * Decodes an RGBE file in slices.
 * @param bytes the .hdr file
 * @param slices the time it runs in
 * @returns the pixels
 */
export async function decodeRgbe(bytes: Uint8Array, slices: WorkSlices): Promise<RgbePanorama> {
  const { width, height, dataPosition } = RGBE_ReadHeader(bytes);
  const data = new Float32Array(width * height * 3);
  const scanline = new Uint8Array(width * 4);
  // As Babylon: a file whose scanlines are not all run-length encoded is read as flat pixels from the start.
  let flat = width < 8 || width > 32767;
  let at = dataPosition;
  for (let y = 0; y < height && !flat; ) {
    await slices.next();
    timedStep("hdr-decode", () => {
      for (const end = Math.min(height, y + ROWS); y < end; y++) {
        const next = readRunLengthScanline(bytes, at, scanline, width);
        if (next < 0) return void (flat = true);
        at = next;
        toFloats(scanline, width, data, y);
      }
    });
  }
  if (flat) {
    at = dataPosition;
    for (let y = 0; y < height; ) {
      await slices.next();
      timedStep("hdr-decode", () => {
        for (const end = Math.min(height, y + ROWS); y < end; y++, at += width * 4) toFloats(bytes.subarray(at, at + width * 4), width, data, y, true);
      });
    }
  }
  return { width, height, data };
}

/** Scanlines decoded between looks at the clock. */
const ROWS = 8;

/**
 * One run-length scanline into `out` (R, G, B, E planes of `width` each).
 * @returns the offset after it, or -1 when it is not run-length encoded
 */
function readRunLengthScanline(bytes: Uint8Array, at: number, out: Uint8Array, width: number): number {
  if (bytes[at] !== 2 || bytes[at + 1] !== 2 || bytes[at + 2]! & 0x80) return -1;
  if (((bytes[at + 2]! << 8) | bytes[at + 3]!) !== width) throw new Error("HDR Bad header format, wrong scan line width");
  at += 4;
  let index = 0;
  for (let channel = 0; channel < 4; channel++) {
    const end = (channel + 1) * width;
    while (index < end) {
      const a = bytes[at++]!;
      let count = a > 128 ? a - 128 : a;
      if (count === 0 || count > end - index) throw new Error(`HDR Bad Format, bad scanline data (${a > 128 ? "run" : "non-run"})`);
      if (a > 128) {
        out.fill(bytes[at++]!, index, index + count);
        index += count;
      } else
        while (count-- > 0) out[index++] = bytes[at++]!;
    }
  }
  return at;
}

/** A scanline's RGBE to floats in row `y`: planar (as run-length scanlines decode: R, G, B, E planes) or interleaved (flat files). */
function toFloats(rgbe: Uint8Array, width: number, data: Float32Array, y: number, interleaved = false): void {
  const o = y * width * 3;
  const step = interleaved ? 4 : 1;
  const plane = interleaved ? 1 : width;
  for (let x = 0, i = 0; x < width; x++, i += step) {
    const scale = SCALE[rgbe[i + 3 * plane]!]!;
    data[o + 3 * x] = rgbe[i]! * scale;
    data[o + 3 * x + 1] = rgbe[i + plane]! * scale;
    data[o + 3 * x + 2] = rgbe[i + 2 * plane]! * scale;
  }
}
