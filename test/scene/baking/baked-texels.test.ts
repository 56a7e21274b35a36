/**
 * The byte layout of baked environments: what is encoded decodes to the same texels and
 * header, wherever the bytes sit in memory, and damaged bytes are refused.
 */
import { describe, expect, test } from "vitest";
import {
  decodeBakedTexels,
  encodeBakedTexels,
  faceLength,
  mipCount,
  type BakedTexelsHeader,
} from "../../../src/scene/baking/baked-texels.ts";

const header: BakedTexelsHeader = {
  size: 4,
  lodGenerationScale: 0.8,
  lodGenerationOffset: 0,
  polynomial: Array.from({ length: 9 }, (_, i) => [i, i + 0.5, 1 - i]),
};

function levels(size: number): Uint16Array[][] {
  let n = 0;
  return Array.from({ length: mipCount(size) }, (_, mip) =>
    Array.from({ length: 6 }, () => Uint16Array.from({ length: faceLength(size, mip) }, () => n++ & 0xffff)),
  );
}

describe("baked texels", () => {
  test("a full mip chain of six faces and the header survive the round trip", () => {
    const texels = levels(4);
    const bytes = encodeBakedTexels(header, texels);
    expect(mipCount(4)).toBe(3);
    const decoded = decodeBakedTexels(bytes);
    expect(decoded.header).toEqual(header);
    expect(decoded.levels.map((faces) => faces.map((f) => [...f]))).toEqual(texels.map((faces) => faces.map((f) => [...f])));
    // Views into the bytes, not copies: loading costs no second pass over the texels.
    expect(decoded.levels[0]![0]!.buffer).toBe(bytes.buffer);
  });

  test("bytes at an odd offset (a slice of a larger buffer) still decode", () => {
    const bytes = encodeBakedTexels(header, levels(4));
    const holder = new Uint8Array(bytes.length + 1);
    holder.set(bytes, 1);
    expect(decodeBakedTexels(holder.subarray(1)).levels[2]![5]).toEqual(levels(4)[2]![5]);
  });

  test("other bytes, a damaged header and a truncated file are refused", () => {
    const bytes = encodeBakedTexels(header, levels(4));
    expect(() => decodeBakedTexels(new TextEncoder().encode("#?RADIANCE\n"))).toThrow("Not a baked environment");
    expect(() => decodeBakedTexels(bytes.subarray(0, bytes.length - 2))).toThrow("truncated");
    const odd = encodeBakedTexels({ ...header, size: 3 }, levels(4));
    expect(() => decodeBakedTexels(odd)).toThrow("damaged header");
    const short = encodeBakedTexels({ ...header, polynomial: header.polynomial.slice(1) }, levels(4));
    expect(() => decodeBakedTexels(short)).toThrow("damaged header");
  });
});
