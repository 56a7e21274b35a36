/**
 * The format and pixel size an image declares in its first bytes, read without decoding
 * anything: what input images are held to before any decoder sees them (a 31 KB PNG may
 * declare 16000×16000 pixels, which decoded take 768 MB).
 */

export type InputImageFormat = "png" | "jpeg" | "webp";

export interface ImageHeader {
  format: InputImageFormat;
  width: number;
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** JPEG start-of-frame markers (C4 DHT, C8 JPG and CC DAC are not frames). */
const JPEG_FRAMES = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/** The header of a PNG, JPEG or WebP image; null for anything else, a cut-short header, or a zero size. */
export function readImageHeader(bytes: Uint8Array): ImageHeader | null {
  const header = pngHeader(bytes) ?? jpegHeader(bytes) ?? webpHeader(bytes);
  return header && header.width > 0 && header.height > 0 ? header : null;
}

const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
const ascii = (bytes: Uint8Array, at: number, length: number) => String.fromCharCode(...bytes.subarray(at, at + length));

/** Signature, then the IHDR chunk first: width and height as big-endian 32-bit numbers. */
function pngHeader(bytes: Uint8Array): ImageHeader | null {
  if (bytes.length < 24 || !PNG_SIGNATURE.every((b, i) => bytes[i] === b) || ascii(bytes, 12, 4) !== "IHDR") return null;
  const v = view(bytes);
  return { format: "png", width: v.getUint32(16), height: v.getUint32(20) };
}

/** Segments from SOI on, each `FF marker length`, until the first frame header (SOFn: precision, height, width). */
function jpegHeader(bytes: Uint8Array): ImageHeader | null {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  const v = view(bytes);
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // image ends or data starts before any frame header
    if (JPEG_FRAMES.has(marker))
      return at + 9 <= bytes.length ? { format: "jpeg", height: v.getUint16(at + 5), width: v.getUint16(at + 7) } : null;
    at += 2 + v.getUint16(at + 2);
  }
  return null;
}

/** RIFF/WEBP, then the first chunk: VP8 (lossy), VP8L (lossless) or VP8X (extended, with the canvas size). */
function webpHeader(bytes: Uint8Array): ImageHeader | null {
  if (bytes.length < 30 || ascii(bytes, 0, 4) !== "RIFF" || ascii(bytes, 8, 4) !== "WEBP") return null;
  const v = view(bytes);
  const chunk = ascii(bytes, 12, 4);
  if (chunk === "VP8 ") {
    if (bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) return null;
    return { format: "webp", width: v.getUint16(26, true) & 0x3fff, height: v.getUint16(28, true) & 0x3fff };
  }
  if (chunk === "VP8L") {
    if (bytes[20] !== 0x2f) return null;
    const bits = v.getUint32(21, true);
    return { format: "webp", width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") {
    const uint24 = (at: number) => bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
    return { format: "webp", width: uint24(24) + 1, height: uint24(27) + 1 };
  }
  return null;
}
