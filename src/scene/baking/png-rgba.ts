/**
 * An 8-bit RGBA PNG written on the CPU. The browser's own encoders (canvas `toBlob`) store
 * premultiplied colour, which would spoil an RGBD image, whose alpha is a range divider
 * rather than coverage; this writes the bytes as they are. Rows are written in the order
 * given, each with the "Sub" filter (neighbouring texels of a prefiltered cube are close).
 */
import { zlibSync } from "fflate";

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** PNG colour type 6: RGBA, 8 bits a channel. */
const RGBA8 = 6;
const SUB_FILTER = 1;

let crcTable: Uint32Array | null = null;

/** CRC-32 (ISO 3309) of the chunk's type and data, as PNG asks. */
function crc32(bytes: Uint8Array): number {
  crcTable ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/**
 * @param width pixels a row
 * @param height rows
 * @param rgba `width * height * 4` bytes, row after row
 * @returns the PNG file
 */
export function encodePngRgba(width: number, height: number, rgba: Uint8Array): Uint8Array {
  if (rgba.length !== width * height * 4) throw new Error(`encodePngRgba: ${rgba.length} bytes for ${width} x ${height} RGBA`);
  const stride = width * 4;
  const filtered = new Uint8Array((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * stride;
    const out = y * (stride + 1);
    filtered[out] = SUB_FILTER;
    for (let x = 0; x < stride; x++) filtered[out + 1 + x] = (rgba[row + x]! - (x >= 4 ? rgba[row + x - 4]! : 0)) & 0xff;
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, RGBA8, 0, 0, 0], 8);
  const parts = [
    Uint8Array.from(SIGNATURE),
    chunk("IHDR", header),
    chunk("IDAT", zlibSync(filtered, { level: 6 })),
    chunk("IEND", new Uint8Array(0)),
  ];
  const file = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    file.set(p, at);
    at += p.length;
  }
  return file;
}
