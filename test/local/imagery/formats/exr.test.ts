import { describe, expect, it } from "vitest";
import { encodeExr } from "../../../../src/local/imagery/formats/exr.ts";
import { fromHalfBits, toHalfBits } from "../../../../src/local/imagery/formats/half-float.ts";
import { babylonReadExr } from "../export/babylon-readers.ts";

function image(width: number, height: number): Float32Array {
  const rgb = new Float32Array(width * height * 3);
  for (let i = 0; i < rgb.length; i += 3) {
    const x = (i / 3) % width;
    const y = Math.floor(i / 3 / width);
    rgb[i] = x / width;
    rgb[i + 1] = (y / height) * 8;
    rgb[i + 2] = x === 3 && y === 5 ? 1000 : 0.001 * x;
  }
  return rgb;
}

describe("half floats", () => {
  it("round to the nearest half and clamp overflow to 65504", () => {
    for (const v of [0, 1, 0.5, 2.5, 100, 65504, 1e-5, 6e-8]) expect(fromHalfBits(toHalfBits(v))).toBeCloseTo(v, 5);
    expect(fromHalfBits(toHalfBits(1 + 1 / 4096))).toBe(1); // below half a step
    expect(fromHalfBits(toHalfBits(1e9))).toBe(65504);
    expect(fromHalfBits(toHalfBits(Infinity))).toBe(65504);
    expect(toHalfBits(NaN)).toBe(0);
    expect(Math.abs(fromHalfBits(toHalfBits(3.14159)) - 3.14159)).toBeLessThan(0.002);
  });
});

describe("OpenEXR writer", () => {
  for (const compression of ["zip", "none"] as const) {
    it(`is read by Babylon's EXR loader (${compression})`, async () => {
      const width = 37;
      const height = 21; // not a multiple of 16: a short last ZIP block
      const rgb = image(width, height);
      const file = encodeExr(width, height, rgb, compression);
      const read = await babylonReadExr(file);
      expect(read.compression).toBe(compression === "zip" ? 3 : 0);
      expect([read.width, read.height]).toEqual([width, height]);
      for (let i = 0; i < rgb.length; i++) {
        expect(Math.abs(read.rgb[i]! - rgb[i]!)).toBeLessThanOrEqual(Math.abs(rgb[i]!) / 1024 + 1e-7);
      }
      expect(read.rgb[(5 * width + 3) * 3 + 2]).toBe(1000);
    });
  }

  it("compresses smooth images with ZIP", () => {
    const rgb = image(256, 64);
    expect(encodeExr(256, 64, rgb, "zip").length).toBeLessThan(encodeExr(256, 64, rgb, "none").length / 2);
  });
});
