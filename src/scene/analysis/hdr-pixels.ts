/**
 * An HDR panorama as float pixels: Radiance `.hdr` (RGBE, flat or run-length encoded) to
 * linear RGB, with Babylon's header reader and Babylon's rules and conversion, so the floats
 * equal `RGBE_ReadPixels`'s (the reader `HDRCubeTexture` uses) and the sun is found in exactly
 * the radiance the environment shows. Babylon's reader decodes the whole picture in one call
 * and cannot resume part-way (about a second for a 4K panorama on a slow core); this one
 * reads a few scanlines at a time, so an apply decodes in slices between which the page draws,
 * and `decodeHdr` reads them all in one go.
 */
import { RGBE_ReadHeader } from "@babylonjs/core/Misc/HighDynamicRange/hdr.js";
import { timedStep } from "../scheduling/step-timing.ts";
import type { WorkSlices } from "../scheduling/work-slices.ts";

/** A decoded equirectangular HDR panorama: linear RGB floats, 3 a pixel, top row first. */
export interface HdrPixels {
  width: number;
  height: number;
  rgb: Float32Array;
}

/**
 * Decodes a Radiance `.hdr` file (RGBE, flat or run-length encoded) in one call.
 * @param bytes the file
 * @returns its pixels
 */
export function decodeHdr(bytes: Uint8Array): HdrPixels {
  const reader = new RgbeReader(bytes);
  while (!reader.done) reader.read(reader.height);
  return reader.pixels();
}

/**
 * Decodes a Radiance `.hdr` file a few scanlines at a time, waiting for a slice between them.
 * @param bytes the file
 * @param slices the time it runs in
 * @returns its pixels, as `decodeHdr` gives them
 */
export async function decodeHdrInSlices(bytes: Uint8Array, slices: WorkSlices): Promise<HdrPixels> {
  const reader = new RgbeReader(bytes);
  while (!reader.done) {
    await slices.next();
    timedStep("hdr-decode", () => reader.read(ROWS));
  }
  return reader.pixels();
}

/** Scanlines decoded between looks at the clock. */
const ROWS = 8;

/** 2^(e - 136) for each exponent byte: RGBE's mantissas are bytes, the exponent biased by 128 (Babylon's Rgbe2float). */
const SCALE = Float64Array.from({ length: 256 }, (_, e) => (e > 0 ? Math.pow(2, e - 136) : 0));

/** Where a decode stands: the next scanline and the byte it starts at. */
class RgbeReader {
  readonly width: number;
  readonly height: number;
  private readonly _rgb: Float32Array;
  private readonly _scanline: Uint8Array;
  private readonly _dataPosition: number;
  private _y = 0;
  private _at: number;
  // As Babylon: a file whose scanlines are not all run-length encoded is read as flat pixels from the start.
  private _flat: boolean;

  constructor(private readonly _bytes: Uint8Array) {
    const { width, height, dataPosition } = RGBE_ReadHeader(_bytes);
    this.width = width;
    this.height = height;
    this._rgb = new Float32Array(width * height * 3);
    this._scanline = new Uint8Array(width * 4);
    this._dataPosition = this._at = dataPosition;
    this._flat = width < 8 || width > 32767;
  }

  get done(): boolean {
    return this._y >= this.height;
  }

  pixels(): HdrPixels {
    return { width: this.width, height: this.height, rgb: this._rgb };
  }

  /** Decodes up to `rows` more scanlines. */
  read(rows: number): void {
    const rowBytes = this.width * 4;
    for (const end = Math.min(this.height, this._y + rows); this._y < end; this._y++) {
      if (this._flat) {
        toFloats(this._bytes.subarray(this._at, this._at + rowBytes), this.width, this._rgb, this._y, true);
        this._at += rowBytes;
        continue;
      }
      const next = readRunLengthScanline(this._bytes, this._at, this._scanline, this.width);
      if (next < 0) return this._restartFlat();
      this._at = next;
      toFloats(this._scanline, this.width, this._rgb, this._y);
    }
  }

  private _restartFlat(): void {
    this._flat = true;
    this._y = 0;
    this._at = this._dataPosition;
  }
}

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
      } else while (count-- > 0) out[index++] = bytes[at++]!;
    }
  }
  return at;
}

/** A scanline's RGBE to floats in row `y`: planar (as run-length scanlines decode: R, G, B, E planes) or interleaved (flat files). */
function toFloats(rgbe: Uint8Array, width: number, rgb: Float32Array, y: number, interleaved = false): void {
  const o = y * width * 3;
  const step = interleaved ? 4 : 1;
  const plane = interleaved ? 1 : width;
  for (let x = 0, i = 0; x < width; x++, i += step) {
    const scale = SCALE[rgbe[i + 3 * plane]!]!;
    rgb[o + 3 * x] = rgbe[i]! * scale;
    rgb[o + 3 * x + 1] = rgbe[i + plane]! * scale;
    rgb[o + 3 * x + 2] = rgbe[i + 2 * plane]! * scale;
  }
}

/**
 * The panorama read every `factor` pixels across and down, each kept pixel the one nearest
 * the centre of its block: values are the panorama's own (a clipped pixel stays at the clip
 * level, as an average of clipped and unclipped ones would not).
 * @param image the panorama
 * @param factor whole number of pixels per kept pixel, each way (1: the panorama itself)
 */
export function pointSampled(image: HdrPixels, factor: number): HdrPixels {
  if (factor <= 1) return image;
  const width = Math.floor(image.width / factor);
  const height = Math.floor(image.height / factor);
  const rgb = new Float32Array(width * height * 3);
  const half = factor >> 1;
  for (let y = 0; y < height; y++) {
    const row = (y * factor + half) * image.width;
    for (let x = 0; x < width; x++) {
      const from = (row + x * factor + half) * 3;
      const to = (y * width + x) * 3;
      rgb[to] = image.rgb[from]!;
      rgb[to + 1] = image.rgb[from + 1]!;
      rgb[to + 2] = image.rgb[from + 2]!;
    }
  }
  return { width, height, rgb };
}
