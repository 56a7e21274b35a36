/**
 * A minimal PNG writer for 16-bit greyscale images (depth maps), with tEXt chunks:
 * sharp's 16-bit path needs a colour-space round trip, and this keeps the bytes exact.
 */
import { deflateSync } from "node:zlib";
import { concatBytes } from "./concat-bytes.ts";

const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

/** `values`: width * height samples, top row first. `text`: tEXt keyword -> Latin-1 value. */
export function encodePngGrey16(width: number, height: number, values: Uint16Array, text: Record<string, string> = {}): Uint8Array {
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr[8] = 16; // bit depth
  ihdr[9] = 0; // greyscale; compression, filter and interlace methods 0
  const chunks = [chunk("IHDR", ihdr)];
  for (const [key, value] of Object.entries(text)) chunks.push(chunk("tEXt", latin1(`${key}\0${value}`)));
  chunks.push(chunk("IDAT", deflateSync(filterRows(width, height, values), { level: 6 })));
  chunks.push(chunk("IEND", new Uint8Array(0)));
  return concatBytes([SIGNATURE, ...chunks]);
}

/** Big-endian samples, each row filtered with Sub or Up, whichever has the smaller sum. */
function filterRows(width: number, height: number, values: Uint16Array): Uint8Array {
  const stride = width * 2;
  const out = new Uint8Array(height * (stride + 1));
  const row = new Uint8Array(stride);
  const previous = new Uint8Array(stride);
  const sub = new Uint8Array(stride);
  const up = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const v = values[y * width + x]!;
      row[2 * x] = v >>> 8;
      row[2 * x + 1] = v & 0xff;
    }
    let subCost = 0;
    let upCost = 0;
    for (let i = 0; i < stride; i++) {
      sub[i] = (row[i]! - (i >= 2 ? row[i - 2]! : 0)) & 0xff;
      up[i] = (row[i]! - previous[i]!) & 0xff;
      subCost += sub[i]! < 128 ? sub[i]! : 256 - sub[i]!;
      upCost += up[i]! < 128 ? up[i]! : 256 - up[i]!;
    }
    const useSub = subCost <= upCost;
    out[y * (stride + 1)] = useSub ? 1 : 2;
    out.set(useSub ? sub : up, y * (stride + 1) + 1);
    previous.set(row);
  }
  return out;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(latin1(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

const CRC_TABLE = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function latin1(text: string): Uint8Array {
  return Uint8Array.from(text, (ch) => ch.charCodeAt(0) & 0xff);
}
