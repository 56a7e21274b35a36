/**
 * OpenEXR writer: single-part scanline image, HALF channels B, G, R (the spec's
 * alphabetical order), INCREASING_Y, ZIP_COMPRESSION (zlib over blocks of 16 scanlines,
 * after OpenEXR's byte split and delta predictor) or NO_COMPRESSION. zlib is Node's
 * native one (faster than a JavaScript deflate such as fflate; the stream format is the same).
 *
 * Blocks are encoded one at a time (`encodeBlock`, or `encodeBlockAsync` to overlap zlib
 * with the next block's conversion), so a large image can be streamed to a file: header,
 * then the offset table (`offsetTable`, known only once every block size is known: write
 * it last at `header.length`), then the blocks in order.
 */
import { deflate, deflateSync } from "node:zlib";
import { concatBytes } from "./concat-bytes.ts";
import { halfBitsOfFloatBits } from "./half-float.ts";

export type ExrCompression = "zip" | "none";

const MAGIC = 20000630;
const COMPRESSION_CODE: Record<ExrCompression, number> = { none: 0, zip: 3 };
/** Scanlines per block, fixed by the compression method. */
const LINES_PER_BLOCK: Record<ExrCompression, number> = { none: 1, zip: 16 };
const CHANNELS = ["B", "G", "R"] as const;
/** Offset of each stored channel inside an RGB triple. */
const CHANNEL_OFFSET = [2, 1, 0] as const;
const HALF = 1;
/** zlib's level for ZIP blocks: predicted half floats gain little past it, and it costs time. */
const ZIP_LEVEL = 4;

export class ExrEncoder {
  readonly linesPerBlock: number;
  readonly blockCount: number;
  /** Everything before the offset table. */
  readonly header: Uint8Array;

  constructor(
    readonly width: number,
    readonly height: number,
    readonly compression: ExrCompression = "zip",
  ) {
    this.linesPerBlock = LINES_PER_BLOCK[compression];
    this.blockCount = Math.ceil(height / this.linesPerBlock);
    this.header = buildHeader(width, height, COMPRESSION_CODE[compression]);
  }

  /** Size of the offset table that follows the header. */
  get offsetTableBytes(): number {
    return this.blockCount * 8;
  }

  /**
   * One block: `rgb` holds its scanlines (linear RGB floats, 3 per pixel, top first),
   * starting at image line `firstLine`. Returns line number, data size and data.
   */
  encodeBlock(rgb: Float32Array, firstLine: number): Uint8Array {
    const raw = this._halfPlanes(rgb, firstLine);
    const packed = this.compression === "zip" ? deflateSync(splitAndPredict(raw), { level: ZIP_LEVEL }) : raw;
    return blockBytes(firstLine, raw, packed);
  }

  /**
   * `encodeBlock` with zlib running on Node's thread pool: the floats are read before this
   * returns (the caller may reuse `rgb` at once), and the caller converts the next block
   * while this one compresses.
   */
  async encodeBlockAsync(rgb: Float32Array, firstLine: number): Promise<Uint8Array> {
    const raw = this._halfPlanes(rgb, firstLine);
    if (this.compression !== "zip") return blockBytes(firstLine, raw, raw);
    const predicted = splitAndPredict(raw);
    const packed = await new Promise<Uint8Array>((resolve, reject) =>
      deflate(predicted, { level: ZIP_LEVEL }, (error, result) => (error ? reject(error) : resolve(result))),
    );
    return blockBytes(firstLine, raw, packed);
  }

  /** The block's scanlines as half floats: per line, all B, then all G, then all R. */
  private _halfPlanes(rgb: Float32Array, firstLine: number): Uint8Array {
    const lines = Math.min(this.linesPerBlock, this.height - firstLine);
    const raw = new Uint8Array(lines * this.width * CHANNELS.length * 2);
    // The floats' bits, read in place.
    const bits = new Uint32Array(rgb.buffer, rgb.byteOffset, lines * this.width * 3);
    let o = 0;
    for (let line = 0; line < lines; line++) {
      const row = line * this.width * 3;
      for (const c of CHANNEL_OFFSET) {
        for (let x = 0; x < this.width; x++) {
          const h = halfBitsOfFloatBits(bits[row + x * 3 + c]!);
          raw[o++] = h & 0xff;
          raw[o++] = h >>> 8;
        }
      }
    }
    return raw;
  }

  /** The offset table, given the absolute file offset of every block. */
  offsetTable(blockOffsets: readonly number[]): Uint8Array {
    if (blockOffsets.length !== this.blockCount) throw new Error("EXR: one offset per block is needed");
    const table = new Uint8Array(this.offsetTableBytes);
    const view = new DataView(table.buffer);
    blockOffsets.forEach((offset, i) => view.setBigUint64(i * 8, BigInt(offset), true));
    return table;
  }
}

/** A whole EXR file in memory (for small images and tests). */
export function encodeExr(width: number, height: number, rgb: Float32Array, compression: ExrCompression = "zip"): Uint8Array {
  const encoder = new ExrEncoder(width, height, compression);
  const blocks: Uint8Array[] = [];
  const offsets: number[] = [];
  let offset = encoder.header.length + encoder.offsetTableBytes;
  for (let y = 0; y < height; y += encoder.linesPerBlock) {
    const block = encoder.encodeBlock(rgb.subarray(y * width * 3, (y + encoder.linesPerBlock) * width * 3), y);
    blocks.push(block);
    offsets.push(offset);
    offset += block.length;
  }
  return concatBytes([encoder.header, encoder.offsetTable(offsets), ...blocks]);
}

/** Line number, data size, data: stored raw when compression did not make it smaller. */
function blockBytes(firstLine: number, raw: Uint8Array, packed: Uint8Array): Uint8Array {
  const data = packed.length < raw.length ? packed : raw;
  const block = new Uint8Array(8 + data.length);
  const view = new DataView(block.buffer);
  view.setInt32(0, firstLine, true);
  view.setInt32(4, data.length, true);
  block.set(data, 8);
  return block;
}

/**
 * OpenEXR's ZIP pre-pass: even bytes then odd bytes (low and high halves of each half
 * float grouped), then each byte replaced by its difference to the previous one + 128.
 */
function splitAndPredict(raw: Uint8Array): Uint8Array {
  const out = new Uint8Array(raw.length);
  const half = (raw.length + 1) >> 1;
  for (let i = 0, a = 0, b = half; i < raw.length; i += 2) {
    out[a++] = raw[i]!;
    if (i + 1 < raw.length) out[b++] = raw[i + 1]!;
  }
  let previous = out[0]!;
  for (let i = 1; i < out.length; i++) {
    const current = out[i]!;
    out[i] = (current - previous + 128 + 256) & 0xff;
    previous = current;
  }
  return out;
}

function buildHeader(width: number, height: number, compressionCode: number): Uint8Array {
  const parts: Uint8Array[] = [];
  const prelude = new DataView(new ArrayBuffer(8));
  prelude.setUint32(0, MAGIC, true);
  prelude.setUint32(4, 2, true); // version 2, single-part scanline, short names
  parts.push(new Uint8Array(prelude.buffer));
  const attribute = (name: string, type: string, value: Uint8Array): void => {
    const size = new DataView(new ArrayBuffer(4));
    size.setUint32(0, value.length, true);
    parts.push(cString(name), cString(type), new Uint8Array(size.buffer), value);
  };
  attribute("channels", "chlist", channelList());
  attribute("compression", "compression", Uint8Array.of(compressionCode));
  const box = int32s([0, 0, width - 1, height - 1]);
  attribute("dataWindow", "box2i", box);
  attribute("displayWindow", "box2i", box);
  attribute("lineOrder", "lineOrder", Uint8Array.of(0)); // INCREASING_Y
  attribute("pixelAspectRatio", "float", float32s([1]));
  attribute("screenWindowCenter", "v2f", float32s([0, 0]));
  attribute("screenWindowWidth", "float", float32s([1]));
  parts.push(Uint8Array.of(0));
  return concatBytes(parts);
}

function channelList(): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const name of CHANNELS) {
    const info = new DataView(new ArrayBuffer(16));
    info.setInt32(0, HALF, true);
    // pLinear (1 byte) and 3 reserved bytes stay 0; x and y sampling are 1.
    info.setInt32(8, 1, true);
    info.setInt32(12, 1, true);
    parts.push(cString(name), new Uint8Array(info.buffer));
  }
  parts.push(Uint8Array.of(0));
  return concatBytes(parts);
}

function cString(text: string): Uint8Array {
  return new TextEncoder().encode(`${text}\0`);
}

function int32s(values: number[]): Uint8Array {
  const view = new DataView(new ArrayBuffer(values.length * 4));
  values.forEach((v, i) => view.setInt32(i * 4, v, true));
  return new Uint8Array(view.buffer);
}

function float32s(values: number[]): Uint8Array {
  const view = new DataView(new ArrayBuffer(values.length * 4));
  values.forEach((v, i) => view.setFloat32(i * 4, v, true));
  return new Uint8Array(view.buffer);
}
