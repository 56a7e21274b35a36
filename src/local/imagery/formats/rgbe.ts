/**
 * Radiance RGBE (.hdr) files: linear HDR radiance, one shared exponent per pixel.
 *
 * Written as "#?RADIANCE", "FORMAT=32-bit_rle_rgbe", a blank line, "-Y <h> +X <w>" and
 * top-to-bottom scanlines in new-style RLE (flat when the width is outside 8..32767).
 * Read: new-style RLE, flat and old-style runs; only the "-Y h +X w" orientation (the
 * one every panorama tool writes, and the only one Babylon reads).
 */
import { decodeScanline, encodeRgbeScanline, encodeScanline, maxScanlineBytes } from "./rgbe-scanline.ts";

export interface RgbeImage {
  width: number;
  height: number;
  /** Linear RGB floats, row-major from the top row, 3 per pixel. */
  rgb: Float32Array;
}

/** The bytes before the first scanline. */
export function rgbeHeader(width: number, height: number): Uint8Array {
  const text = `#?RADIANCE\n# babylon-skybox\nFORMAT=32-bit_rle_rgbe\n\n-Y ${height} +X ${width}\n`;
  return new TextEncoder().encode(text);
}

/** A complete .hdr file of `rgb` (width * height * 3 linear floats, top row first). */
export function encodeRgbe(width: number, height: number, rgb: Float32Array): Uint8Array {
  if (rgb.length < width * height * 3) throw new Error("encodeRgbe: rgb is smaller than width * height * 3");
  const header = rgbeHeader(width, height);
  const rows = encodeRgbeRows(width, rgb, 0, height);
  const out = new Uint8Array(header.length + rows.length);
  out.set(header);
  out.set(rows, header.length);
  return out;
}

/**
 * The scanlines of rows [y0, y1) of `rgb` (width * 3 floats a row, top row first): what
 * follows the header. Scanlines are independent, so bands of rows can be encoded in
 * parallel and their bytes concatenated in order after `rgbeHeader`.
 */
function encodeRgbeRows(width: number, rgb: Float32Array, y0: number, y1: number): Uint8Array {
  if (rgb.length < y1 * width * 3) throw new Error("encodeRgbe: rgb is smaller than width * height * 3");
  const out = new Uint8Array((y1 - y0) * maxScanlineBytes(width));
  const planes = new Uint8Array(width * 4);
  let pos = 0;
  const rowLength = width * 3;
  for (let y = y0; y < y1; y++) {
    pos = encodeScanline(rgb.subarray(y * rowLength, (y + 1) * rowLength), width, planes, out, pos);
  }
  return out.slice(0, pos);
}

/**
 * The scanlines of rows [y0, y1) of an image already in RGBE bytes (`rgbe`: width * 4
 * bytes a row, interleaved R, G, B, E, top row first), as `encodeRgbeRows` gives them.
 */
export function rgbeScanlines(width: number, rgbe: Uint8Array, y0: number, y1: number): Uint8Array {
  if (rgbe.length < y1 * width * 4) throw new Error("rgbeScanlines: rgbe is smaller than width * height * 4");
  const out = new Uint8Array((y1 - y0) * maxScanlineBytes(width));
  const planes = new Uint8Array(width * 4);
  let pos = 0;
  for (let y = y0; y < y1; y++) pos = encodeRgbeScanline(rgbe.subarray(y * width * 4, (y + 1) * width * 4), width, planes, out, pos);
  return out.slice(0, pos);
}

/** Decodes a whole .hdr file. */
export function decodeRgbe(bytes: Uint8Array): RgbeImage {
  const reader = new RgbeRowReader(bytes);
  const { width, height } = reader;
  const rgb = new Float32Array(width * height * 3);
  for (let y = 0; y < height; y++) reader.next(rgb.subarray(y * width * 3, (y + 1) * width * 3));
  return { width, height, rgb };
}

/**
 * Decodes a .hdr file one scanline at a time, top to bottom, so that large panoramas can
 * be processed in bands without holding all their floats.
 */
export class RgbeRowReader {
  readonly width: number;
  readonly height: number;
  /** Index of the next row `next` returns. */
  row = 0;
  private _pos: number;
  private readonly _planes: Uint8Array;

  constructor(private readonly _bytes: Uint8Array) {
    const header = parseHeader(_bytes);
    this.width = header.width;
    this.height = header.height;
    this._pos = header.dataOffset;
    this._planes = new Uint8Array(this.width * 4);
  }

  /** Decodes the next row into `out` (width * 3 floats) and returns it. */
  next(out: Float32Array = new Float32Array(this.width * 3)): Float32Array {
    if (this.row >= this.height) throw new Error("RGBE: read past the last scanline");
    this._pos = decodeScanline(this._bytes, this._pos, this.width, this._planes, out);
    this.row++;
    return out;
  }
}

function parseHeader(bytes: Uint8Array): { width: number; height: number; dataOffset: number } {
  let pos = 0;
  const line = (): string => {
    const end = bytes.indexOf(0x0a, pos);
    if (end < 0) throw new Error("RGBE: truncated header");
    const text = new TextDecoder("latin1").decode(bytes.subarray(pos, end));
    pos = end + 1;
    return text;
  };
  if (!line().startsWith("#?")) throw new Error("RGBE: missing #? signature");
  for (let text = line(); text !== ""; text = line()) {
    if (text.startsWith("FORMAT=") && text !== "FORMAT=32-bit_rle_rgbe") throw new Error(`RGBE: unsupported ${text}`);
  }
  const size = /^-Y (\d+) \+X (\d+)$/.exec(line().trim());
  if (!size) throw new Error("RGBE: only '-Y h +X w' orientation is supported");
  return { height: Number(size[1]), width: Number(size[2]), dataOffset: pos };
}
