/**
 * Scanline codec of Radiance .hdr files: new-style run-length encoding (each of the four
 * RGBE byte planes compressed separately) and the flat / old-style forms for reading.
 */
import { floatToRgbePlanar, rgbeScale } from "./rgbe-pixel.ts";

/** Runs shorter than this are cheaper as literals (Radiance's MINRUNLENGTH). */
const MIN_RUN = 4;

/** New-style RLE exists only for widths in this range; other widths are written flat. */
export function canRunLengthEncode(width: number): boolean {
  return width >= 8 && width <= 0x7fff;
}

/** Upper bound of the encoded size of one scanline. */
export function maxScanlineBytes(width: number): number {
  return canRunLengthEncode(width) ? 4 + 4 * (width + Math.ceil(width / 128) + 1) : 4 * width;
}

/**
 * Encodes one scanline (`rgb`: width * 3 linear floats) into `out` at `pos`, using
 * `planes` (width * 4 bytes) as scratch. Returns the position after the scanline.
 */
export function encodeScanline(rgb: Float32Array, width: number, planes: Uint8Array, out: Uint8Array, pos: number): number {
  floatsToPlanes(rgb, width, planes);
  return encodePlanes(planes, width, out, pos);
}

// The per-pixel loops stand alone, with nothing after them: V8 compiles a long loop while it
// runs (on-stack replacement), and a call after it, not yet made then, would be compiled
// without feedback: every later scanline would leave the compiled loop at that call.
function floatsToPlanes(rgb: Float32Array, width: number, planes: Uint8Array): void {
  for (let x = 0, i = 0; x < width; x++, i += 3) floatToRgbePlanar(rgb[i]!, rgb[i + 1]!, rgb[i + 2]!, planes, x, width);
}

/**
 * Encodes one scanline already in RGBE bytes (`rgbe`: width * 4 bytes, interleaved R, G, B,
 * E) into `out` at `pos`, using `planes` (width * 4 bytes) as scratch. Returns the position
 * after the scanline.
 */
export function encodeRgbeScanline(rgbe: Uint8Array, width: number, planes: Uint8Array, out: Uint8Array, pos: number): number {
  interleavedToPlanes(rgbe, width, planes);
  return encodePlanes(planes, width, out, pos);
}

function interleavedToPlanes(rgbe: Uint8Array, width: number, planes: Uint8Array): void {
  for (let x = 0, i = 0; x < width; x++, i += 4) {
    planes[x] = rgbe[i]!;
    planes[x + width] = rgbe[i + 1]!;
    planes[x + 2 * width] = rgbe[i + 2]!;
    planes[x + 3 * width] = rgbe[i + 3]!;
  }
}

/** A scanline of four RGBE byte planes (all R, all G, all B, all E) as the file holds it. */
function encodePlanes(planes: Uint8Array, width: number, out: Uint8Array, pos: number): number {
  if (!canRunLengthEncode(width)) {
    for (let x = 0; x < width; x++) {
      out[pos++] = planes[x]!;
      out[pos++] = planes[x + width]!;
      out[pos++] = planes[x + 2 * width]!;
      out[pos++] = planes[x + 3 * width]!;
    }
    return pos;
  }
  out[pos++] = 2;
  out[pos++] = 2;
  out[pos++] = width >> 8;
  out[pos++] = width & 0xff;
  for (let c = 0; c < 4; c++) pos = encodePlane(planes, c * width, (c + 1) * width, out, pos);
  return pos;
}

/** Radiance's RGBE_WriteBytes_RLE: runs of >= MIN_RUN equal bytes, literals otherwise. */
function encodePlane(data: Uint8Array, start: number, end: number, out: Uint8Array, pos: number): number {
  let cur = start;
  while (cur < end) {
    let begRun = cur;
    let runCount = 0;
    let oldRunCount = 0;
    while (runCount < MIN_RUN && begRun < end) {
      begRun += runCount;
      oldRunCount = runCount;
      runCount = 1;
      while (begRun + runCount < end && runCount < 127 && data[begRun] === data[begRun + runCount]) runCount++;
    }
    if (oldRunCount > 1 && oldRunCount === begRun - cur) {
      out[pos++] = 128 + oldRunCount;
      out[pos++] = data[cur]!;
      cur = begRun;
    }
    while (cur < begRun) {
      const n = Math.min(128, begRun - cur);
      out[pos++] = n;
      out.set(data.subarray(cur, cur + n), pos);
      pos += n;
      cur += n;
    }
    if (runCount >= MIN_RUN) {
      out[pos++] = 128 + runCount;
      out[pos++] = data[begRun]!;
      cur += runCount;
    }
  }
  return pos;
}

/**
 * Decodes one scanline starting at `pos` into `rgb` (width * 3 floats), using `planes`
 * (width * 4 bytes) as scratch. Returns the position after the scanline. Handles new-style
 * RLE, flat pixels and old-style (1,1,1,n) repeat runs.
 */
export function decodeScanline(bytes: Uint8Array, pos: number, width: number, planes: Uint8Array, rgb: Float32Array): number {
  const isRle = canRunLengthEncode(width) && bytes[pos] === 2 && bytes[pos + 1] === 2 && (bytes[pos + 2]! & 0x80) === 0;
  pos = isRle ? readRlePlanes(bytes, pos, width, planes) : readFlatPlanes(bytes, pos, width, planes);
  for (let x = 0, i = 0; x < width; x++, i += 3) {
    const f = rgbeScale(planes[x + 3 * width]!);
    rgb[i] = planes[x]! * f;
    rgb[i + 1] = planes[x + width]! * f;
    rgb[i + 2] = planes[x + 2 * width]! * f;
  }
  return pos;
}

function readRlePlanes(bytes: Uint8Array, pos: number, width: number, planes: Uint8Array): number {
  if (((bytes[pos + 2]! << 8) | bytes[pos + 3]!) !== width) throw new Error("RGBE: scanline width mismatch");
  pos += 4;
  for (let c = 0; c < 4; c++) {
    let i = c * width;
    const end = i + width;
    while (i < end) {
      if (pos >= bytes.length) throw new Error("RGBE: truncated scanline");
      const a = bytes[pos++]!;
      if (a > 128) {
        const n = a - 128;
        if (n > end - i) throw new Error("RGBE: bad run length");
        planes.fill(bytes[pos++]!, i, i + n);
        i += n;
      } else {
        if (a === 0 || a > end - i) throw new Error("RGBE: bad literal length");
        planes.set(bytes.subarray(pos, pos + a), i);
        pos += a;
        i += a;
      }
    }
  }
  return pos;
}

function readFlatPlanes(bytes: Uint8Array, pos: number, width: number, planes: Uint8Array): number {
  let shift = 0;
  for (let x = 0; x < width;) {
    if (pos + 4 > bytes.length) throw new Error("RGBE: truncated scanline");
    const r = bytes[pos]!,
      g = bytes[pos + 1]!,
      b = bytes[pos + 2]!,
      e = bytes[pos + 3]!;
    pos += 4;
    if (r === 1 && g === 1 && b === 1 && x > 0) {
      // Old-style run: repeat the previous pixel, counts accumulate in bytes of 8 bits.
      const n = Math.min(e << shift, width - x);
      for (let c = 0; c < 4; c++) planes.fill(planes[c * width + x - 1]!, c * width + x, c * width + x + n);
      x += n;
      shift += 8;
      continue;
    }
    planes[x] = r;
    planes[x + width] = g;
    planes[x + 2 * width] = b;
    planes[x + 3 * width] = e;
    x++;
    shift = 0;
  }
  return pos;
}
