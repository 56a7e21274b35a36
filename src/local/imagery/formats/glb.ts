/**
 * Binary glTF 2.0 (.glb) container: a 12-byte header, a JSON chunk padded with spaces and
 * a BIN chunk padded with zeros, both to 4 bytes. `GlbBinary` lays out buffer views in
 * the BIN chunk, each aligned to 4 bytes (enough for every component type).
 */
import { concatBytes } from "./concat-bytes.ts";

/** bufferView.target values. */
export const ARRAY_BUFFER = 34962;
export const ELEMENT_ARRAY_BUFFER = 34963;

export interface GltfBufferView {
  buffer: 0;
  byteOffset: number;
  byteLength: number;
  target?: number;
}

/** The BIN chunk under construction and the buffer views that point into it. */
export class GlbBinary {
  readonly bufferViews: GltfBufferView[] = [];
  private readonly _parts: Uint8Array[] = [];
  private _length = 0;

  /** Appends `bytes` as a new buffer view; returns its index. */
  add(bytes: ArrayBufferView, target?: number): number {
    const padding = (4 - (this._length % 4)) % 4;
    if (padding) this._push(new Uint8Array(padding));
    const view: GltfBufferView = { buffer: 0, byteOffset: this._length, byteLength: bytes.byteLength };
    if (target !== undefined) view.target = target;
    this._push(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    this.bufferViews.push(view);
    return this.bufferViews.length - 1;
  }

  get byteLength(): number {
    return this._length;
  }

  bytes(): Uint8Array {
    return concatBytes(this._parts);
  }

  private _push(part: Uint8Array): void {
    this._parts.push(part);
    this._length += part.length;
  }
}

const MAGIC = 0x46546c67; // "glTF"
const JSON_CHUNK = 0x4e4f534a; // "JSON"
const BIN_CHUNK = 0x004e4942; // "BIN\0"

/** A .glb file of a glTF JSON document (whose buffers[0] is the BIN chunk) and its binary. */
export function encodeGlb(json: object, bin: Uint8Array): Uint8Array {
  const jsonBytes = padTo4(new TextEncoder().encode(JSON.stringify(json)), 0x20);
  const binBytes = padTo4(bin, 0);
  const total = 12 + 8 + jsonBytes.length + (binBytes.length ? 8 + binBytes.length : 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, total, true);
  view.setUint32(12, jsonBytes.length, true);
  view.setUint32(16, JSON_CHUNK, true);
  out.set(jsonBytes, 20);
  if (binBytes.length) {
    const at = 20 + jsonBytes.length;
    view.setUint32(at, binBytes.length, true);
    view.setUint32(at + 4, BIN_CHUNK, true);
    out.set(binBytes, at + 8);
  }
  return out;
}

function padTo4(bytes: Uint8Array, fill: number): Uint8Array {
  const padded = Math.ceil(bytes.length / 4) * 4;
  if (padded === bytes.length) return bytes;
  const out = new Uint8Array(padded).fill(fill);
  out.set(bytes);
  return out;
}
