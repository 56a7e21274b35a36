/**
 * The generation's depth map (`depth_map_url`): a 16-bit greyscale PNG whose values are log
 * distances (src/api/depth-encoding.ts):
 *
 *   distance_m = 0.5 * (1e6 / 0.5) ^ (1 - value / 65535);   65535 = nearest, 0 = sky
 *
 * Browsers decode PNGs to 8 bits per channel, which would leave 256 distance steps of 6 %
 * each; this module reads the 16-bit samples itself (fflate for the zlib stream, or the
 * browser's DecompressionStream off the main thread on the way to a backdrop).
 */
import { unzlibSync } from "fflate";
import { timedStep } from "../scheduling/step-timing.ts";
import type { WorkSlices } from "../scheduling/work-slices.ts";

export { backdropRadius, decodeDistance16, DEPTH_FAR_M, DEPTH_NEAR_M } from "../../api/depth-encoding.ts";

/** Depth samples, top row first, 0..65535 whatever the file's bit depth. */
export interface DepthImage {
  width: number;
  height: number;
  values: Uint16Array;
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

/** A depth PNG's header and its compressed image data. */
interface DepthPng {
  width: number;
  height: number;
  depth: number;
  channels: number;
  zlib: Uint8Array;
}

/**
 * Decodes a non-interlaced greyscale (or RGB/RGBA, first channel used) PNG of 8 or 16 bits.
 * @param png file bytes
 * @returns the samples scaled to 16 bits
 */
export function decodeDepthPng(png: Uint8Array): DepthImage {
  const { width, height, depth, channels, zlib } = parseDepthPng(png);
  const raw = unzlibSync(zlib);
  const bpp = (channels * depth) / 8;
  checkLength(raw, width, height, bpp);
  const out = new Uint8Array(height * width * bpp);
  unfilterRows(raw, out, width, bpp, 0, height);
  const values = new Uint16Array(width * height);
  samplesOfRows(out, values, width, channels, depth, 0, height);
  return { width, height, values };
}

/**
 * `decodeDepthPng` without holding the page: the browser inflates the data off the main
 * thread (`DecompressionStream`) and the rows are unfiltered in slices.
 * @param png file bytes
 * @param slices the time the rows are unfiltered in
 * @returns the samples scaled to 16 bits
 */
export async function decodeDepthPngInSlices(png: Uint8Array, slices: WorkSlices): Promise<DepthImage> {
  const { width, height, depth, channels, zlib } = parseDepthPng(png);
  const raw = new Uint8Array(
    await new Response(new Blob([zlib as BlobPart]).stream().pipeThrough(new DecompressionStream("deflate"))).arrayBuffer(),
  );
  const bpp = (channels * depth) / 8;
  checkLength(raw, width, height, bpp);
  const out = new Uint8Array(height * width * bpp);
  const values = new Uint16Array(width * height);
  for (let y = 0; y < height; y += ROWS) {
    await slices.next();
    timedStep("depth-decode", () => {
      const end = Math.min(height, y + ROWS);
      unfilterRows(raw, out, width, bpp, y, end);
      samplesOfRows(out, values, width, channels, depth, y, end);
    });
  }
  return { width, height, values };
}

/** Rows unfiltered between looks at the clock. */
const ROWS = 16;

function parseDepthPng(png: Uint8Array): DepthPng {
  if (!SIGNATURE.every((b, i) => png[i] === b)) throw new Error("The depth map is not a PNG file");
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let width = 0;
  let height = 0;
  let depth = 0;
  let channels = 0;
  const idat: Uint8Array[] = [];
  for (let o = 8; o + 8 <= png.length;) {
    const length = view.getUint32(o);
    const type = String.fromCharCode(png[o + 4]!, png[o + 5]!, png[o + 6]!, png[o + 7]!);
    const data = png.subarray(o + 8, o + 8 + length);
    if (type === "IHDR") {
      width = view.getUint32(o + 8);
      height = view.getUint32(o + 12);
      depth = data[8]!;
      channels = CHANNELS[data[9]!] ?? 0;
      if (data[12] !== 0) throw new Error("Interlaced depth maps are not supported");
    } else if (type === "IDAT") idat.push(data);
    else if (type === "IEND") break;
    o += 12 + length;
  }
  if (!width || !height || !channels || (depth !== 8 && depth !== 16))
    throw new Error(`Unsupported depth map PNG (bit depth ${depth}, ${channels} channels)`);
  return { width, height, depth, channels, zlib: joined(idat) };
}

function checkLength(raw: Uint8Array, width: number, height: number, bpp: number): void {
  if (raw.length < height * (width * bpp + 1)) throw new Error("The depth map's image data is truncated");
}

function joined(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) out.set(p, (o += p.length) - p.length);
  return out;
}

/** Undoes the per-row PNG filters (None, Sub, Up, Average, Paeth) of rows y0..y1 into `out` (rows above y0 done already). */
function unfilterRows(raw: Uint8Array, out: Uint8Array, width: number, bpp: number, y0: number, y1: number): void {
  const stride = width * bpp;
  for (let y = y0; y < y1; y++) {
    const filter = raw[y * (stride + 1)]!;
    const src = y * (stride + 1) + 1;
    const row = y * stride;
    const up = row - stride;
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? out[row + i - bpp]! : 0;
      const b = y > 0 ? out[up + i]! : 0;
      const c = y > 0 && i >= bpp ? out[up + i - bpp]! : 0;
      const x = raw[src + i]!;
      out[row + i] =
        (filter === 0 ? x : filter === 1 ? x + a : filter === 2 ? x + b : filter === 3 ? x + ((a + b) >> 1) : x + paeth(a, b, c)) & 0xff;
    }
  }
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** The 16-bit samples of rows y0..y1 of unfiltered `bytes` into `out`. */
function samplesOfRows(bytes: Uint8Array, out: Uint16Array, width: number, channels: number, depth: number, y0: number, y1: number): void {
  const step = (channels * depth) / 8;
  for (let i = y0 * width; i < y1 * width; i++) {
    const o = i * step;
    out[i] = depth === 16 ? (bytes[o]! << 8) | bytes[o + 1]! : bytes[o]! * 257;
  }
}
