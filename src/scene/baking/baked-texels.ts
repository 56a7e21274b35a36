/**
 * The byte layout of a baked environment in the cache: the prefiltered cube's own texels,
 * half-float RGBA, every mip of every face, behind a small JSON header (size, LOD scale and
 * offset, irradiance harmonics). Loading it is one upload per face and mip: no image to
 * decode, no RGBD to expand on the GPU, as Babylon's `.env` (PNG images) needs.
 *
 *   "SKYTEXL1" | header length (uint32 LE) | header JSON | padding to 8 | texels
 *
 * Texels are little-endian uint16 halves, mip 0 first, faces +X -X +Y -Y +Z -Z, rows as
 * `readPixels` returns them (bottom first), which `invertY: false` uploads unchanged.
 */

const MAGIC = "SKYTEXL1";

/** What the texels need to light like the environment they were read from. */
export interface BakedTexelsHeader {
  /** Face size of mip 0 (a power of two). */
  size: number;
  lodGenerationScale: number;
  lodGenerationOffset: number;
  /** Irradiance harmonics as SphericalPolynomial.FromArray takes them (x, y, z, xx, yy, zz, yz, zx, xy). */
  polynomial: number[][];
}

/** Faces of every mip: `levels[mip][face]`, RGBA halves. */
export type TexelLevels = Uint16Array[][];

/** Mip count of a full chain down to 1 x 1. */
export function mipCount(size: number): number {
  return Math.log2(size) + 1;
}

/** Halves in one face of `mip`. */
export function faceLength(size: number, mip: number): number {
  const side = Math.max(1, size >> mip);
  return side * side * 4;
}

/**
 * Lays out a baked environment.
 * @param header size, LOD settings, harmonics
 * @param levels `levels[mip][face]`, a full chain of faces of the right lengths
 * @returns the bytes to store
 */
export function encodeBakedTexels(header: BakedTexelsHeader, levels: TexelLevels): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(header));
  const start = align8(MAGIC.length + 4 + json.length);
  const total = levels.flat().reduce((n, face) => n + face.byteLength, start);
  const out = new Uint8Array(total);
  out.set(new TextEncoder().encode(MAGIC), 0);
  new DataView(out.buffer).setUint32(MAGIC.length, json.length, true);
  out.set(json, MAGIC.length + 4);
  let offset = start;
  for (const face of levels.flat()) {
    out.set(new Uint8Array(face.buffer, face.byteOffset, face.byteLength), offset);
    offset += face.byteLength;
  }
  return out;
}

/**
 * Reads a baked environment back; throws on anything but a complete, well-formed one.
 * @param bytes what `encodeBakedTexels` made
 * @returns the header and views of the texels (copied only when `bytes` is not 2-byte aligned)
 */
export function decodeBakedTexels(bytes: Uint8Array): { header: BakedTexelsHeader; levels: TexelLevels } {
  if (bytes.length < MAGIC.length + 4 || new TextDecoder().decode(bytes.subarray(0, MAGIC.length)) !== MAGIC)
    throw new Error("Not a baked environment");
  const jsonLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(MAGIC.length, true);
  const header = checkHeader(JSON.parse(new TextDecoder().decode(bytes.subarray(MAGIC.length + 4, MAGIC.length + 4 + jsonLength))));
  const data = bytes.byteOffset % 2 === 0 ? bytes : bytes.slice();
  const levels: TexelLevels = [];
  let offset = align8(MAGIC.length + 4 + jsonLength);
  for (let mip = 0; mip < mipCount(header.size); mip++) {
    const faces: Uint16Array[] = [];
    for (let face = 0; face < 6; face++) {
      const length = faceLength(header.size, mip);
      if (offset + 2 * length > data.length) throw new Error("Baked environment is truncated");
      faces.push(new Uint16Array(data.buffer, data.byteOffset + offset, length));
      offset += 2 * length;
    }
    levels.push(faces);
  }
  return { header, levels };
}

/** The header, checked field by field (the core entry carries no schema library for this one shape). */
function checkHeader(value: unknown): BakedTexelsHeader {
  const h = value as Partial<BakedTexelsHeader> | null;
  const finite = (n: unknown): n is number => typeof n === "number" && Number.isFinite(n);
  const sizeOk = finite(h?.size) && h.size >= 1 && Number.isInteger(Math.log2(h.size));
  const polynomialOk =
    Array.isArray(h?.polynomial) &&
    h.polynomial.length === 9 &&
    h.polynomial.every((v) => Array.isArray(v) && v.length === 3 && v.every(finite));
  if (!h || !sizeOk || !polynomialOk || !finite(h.lodGenerationScale) || !finite(h.lodGenerationOffset))
    throw new Error("Baked environment has a damaged header");
  return h as BakedTexelsHeader;
}

function align8(n: number): number {
  return Math.ceil(n / 8) * 8;
}
