import { describe, expect, it } from "vitest";
import { RGBE_ReadHeader, RGBE_ReadPixels } from "@babylonjs/core/Misc/HighDynamicRange/hdr.js";
import { decodeRgbe, encodeRgbe, rgbeHeader, rgbeScanlines } from "../../../../src/local/imagery/formats/rgbe.ts";
import { readRgbe, writeRgbe } from "../../../../src/local/imagery/formats/rgbe-pixel.ts";

/** A deterministic test image: smooth gradient, flat runs, a few very bright and dark pixels. */
function sample(width: number, height: number): Float32Array {
  const rgb = new Float32Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const flat = x < width / 3;
      rgb[i] = flat ? 0.25 : (x / width) * 4;
      rgb[i + 1] = flat ? 0.25 : (y / height) * 0.5;
      rgb[i + 2] = flat ? 0.25 : ((x * 7 + y * 13) % 17) / 17;
    }
  }
  rgb.set([100, 90, 80], ((height >> 1) * width + (width >> 1)) * 3); // a "sun"
  rgb.set([1e-6, 0, 0], 3); // nearly black
  return rgb;
}

/** Worst relative error of RGBE: one mantissa step of the largest channel. */
function expectClose(a: Float32Array, b: Float32Array): void {
  expect(a.length).toBe(b.length);
  for (let i = 0; i < a.length; i += 3) {
    const m = Math.max(b[i]!, b[i + 1]!, b[i + 2]!);
    for (let c = 0; c < 3; c++) expect(Math.abs(a[i + c]! - b[i + c]!)).toBeLessThanOrEqual(m / 128 + 1e-30);
  }
}

describe("RGBE (.hdr)", () => {
  it("keeps a render's pixels as the file's bytes: read back as the file reads, written again unchanged", () => {
    const rgb = sample(67, 23);
    const bytes = new Uint8Array(67 * 23 * 4);
    for (let p = 0; p < 67 * 23; p++) writeRgbe(rgb[p * 3]!, rgb[p * 3 + 1]!, rgb[p * 3 + 2]!, bytes, p * 4);
    const read = new Float32Array(67 * 23 * 3);
    for (let p = 0; p < 67 * 23; p++) readRgbe(bytes, p * 4, read, p * 3);
    expect(read).toEqual(decodeRgbe(encodeRgbe(67, 23, rgb)).rgb);
    const again = new Uint8Array(bytes.length);
    for (let p = 0; p < 67 * 23; p++) writeRgbe(read[p * 3]!, read[p * 3 + 1]!, read[p * 3 + 2]!, again, p * 4);
    expect(again).toEqual(bytes);
    const file = encodeRgbe(67, 23, rgb);
    expect(rgbeScanlines(67, bytes, 0, 23)).toEqual(file.subarray(rgbeHeader(67, 23).length));
  });

  it("round-trips through its own decoder within one mantissa step", () => {
    const rgb = sample(67, 23);
    const file = encodeRgbe(67, 23, rgb);
    expect(new TextDecoder().decode(file.subarray(0, 10))).toBe("#?RADIANCE");
    const back = decodeRgbe(file);
    expect([back.width, back.height]).toEqual([67, 23]);
    expectClose(back.rgb, rgb);
    expect(back.rgb[(11 * 67 + 33) * 3]).toBeGreaterThan(99);
  });

  it("is read by Babylon's RGBE reader with the same values as ours", () => {
    const file = encodeRgbe(300, 40, sample(300, 40));
    const info = RGBE_ReadHeader(file);
    expect([info.width, info.height]).toEqual([300, 40]);
    const babylon = RGBE_ReadPixels(file, info);
    expect(Array.from(babylon)).toEqual(Array.from(decodeRgbe(file).rgb));
  });

  it("run-length encodes flat regions (new-style scanlines) and reads flat files", () => {
    const flat = new Float32Array(512 * 8 * 3).fill(0.5);
    const file = encodeRgbe(512, 8, flat);
    expect(file.length).toBeLessThan((512 * 8 * 4) / 10);
    const header = new TextDecoder().decode(file).split("\n");
    expect(header).toContain("FORMAT=32-bit_rle_rgbe");
    expect(header).toContain("-Y 8 +X 512");
    // Width 5 is outside the RLE range: flat pixels, still round-trips.
    const tiny = sample(5, 3);
    expectClose(decodeRgbe(encodeRgbe(5, 3, tiny)).rgb, tiny);
  });
});
