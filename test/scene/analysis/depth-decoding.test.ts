import { PNG } from "pngjs";
import { describe, expect, test } from "vitest";
import { decodeDistance16 as localDecode, encodeDistance16 } from "../../../src/api/depth-encoding.ts";
import { encodeDepthPng } from "../../../src/local/imagery/formats/depth-png.ts";
import { meshRadius, SKY_RADIUS } from "../../../src/local/imagery/export/mesh/mesh-glb-export.ts";
import { backdropRadius, decodeDepthPng, decodeDepthPngInSlices, decodeDistance16 } from "../../../src/scene/analysis/depth-decoding.ts";
import { WorkSlices } from "../../../src/scene/scheduling/work-slices.ts";

function values(width: number, height: number): Uint16Array {
  const out = new Uint16Array(width * height);
  for (let i = 0; i < out.length; i++) out[i] = (i * 2654435761) % 65536;
  return out;
}

describe("depth map decoding", () => {
  test("reads the local service's 16-bit depth PNGs value for value", async () => {
    const v = values(37, 11);
    const depth = decodeDepthPng(await encodeDepthPng(v, 37, 11));
    expect(depth.width).toBe(37);
    expect(depth.height).toBe(11);
    expect(Array.from(depth.values)).toEqual(Array.from(v));
  });

  test("undoes every PNG filter (Average and Paeth included) and 8-bit files", () => {
    const v = values(23, 9);
    for (const filterType of [0, 1, 2, 3, 4]) {
      const png = new PNG({ width: 23, height: 9, bitDepth: 16, colorType: 0, inputColorType: 0, inputHasAlpha: false });
      const data = Buffer.alloc(23 * 9 * 2);
      v.forEach((x, i) => data.writeUInt16BE(x, i * 2));
      png.data = data;
      const bytes = PNG.sync.write(png, { bitDepth: 16, colorType: 0, inputColorType: 0, inputHasAlpha: false, filterType });
      // pngjs's own reader is the oracle (it hands 16-bit samples back as RGBA).
      const oracle = PNG.sync.read(bytes, { skipRescale: true }).data as unknown as ArrayLike<number>;
      const expected = Array.from({ length: 23 * 9 }, (_, i) => oracle[i * 4]!);
      expect(new Set(expected).size, "the image is not flat").toBeGreaterThan(100);
      expect(Array.from(decodeDepthPng(bytes).values), `filter ${filterType}`).toEqual(expected);
    }
    const grey8 = PNG.sync.write(
      Object.assign(new PNG({ width: 4, height: 1 }), {
        data: Buffer.from([0, 0, 0, 255, 128, 128, 128, 255, 255, 255, 255, 255, 1, 1, 1, 255]),
      }),
      { colorType: 0 },
    );
    expect(Array.from(decodeDepthPng(grey8).values)).toEqual([0, 128 * 257, 65535, 257]);
  });

  test("decodes in slices what it decodes at once, every filter, inflated by the platform's DecompressionStream", async () => {
    const v = values(23, 40);
    let waits = 0;
    const slices = new WorkSlices(async () => (waits++, { timeRemaining: () => 0 }));
    for (const filterType of [0, 1, 2, 3, 4]) {
      const png = new PNG({ width: 23, height: 40, bitDepth: 16, colorType: 0, inputColorType: 0, inputHasAlpha: false });
      const data = Buffer.alloc(23 * 40 * 2);
      v.forEach((x, i) => data.writeUInt16BE(x, i * 2));
      png.data = data;
      const bytes = new Uint8Array(
        PNG.sync.write(png, { bitDepth: 16, colorType: 0, inputColorType: 0, inputHasAlpha: false, filterType }),
      );
      expect(await decodeDepthPngInSlices(bytes, slices), `filter ${filterType}`).toEqual(decodeDepthPng(bytes));
    }
    // 40 rows, 16 a slice: three slices a file.
    expect(waits).toBe(5 * 3);
    await expect(decodeDepthPngInSlices((await encodeDepthPng(values(8, 8), 8, 8)).subarray(0, 60), slices)).rejects.toThrow();
  });

  test("rejects what is not a PNG or is cut short", async () => {
    expect(() => decodeDepthPng(new Uint8Array([1, 2, 3]))).toThrow(/not a PNG/);
    const png = await encodeDepthPng(values(8, 8), 8, 8);
    expect(() => decodeDepthPng(png.subarray(0, 60))).toThrow();
  });

  test("decodes distances and backdrop radii exactly as the local service encodes them", () => {
    for (const metres of [0.5, 1, 12.5, 300, 4000, 250_000]) {
      const v = encodeDistance16(metres);
      expect(decodeDistance16(v)).toBeCloseTo(localDecode(v), 9);
      expect(decodeDistance16(v) / metres).toBeCloseTo(1, 3);
      for (const depthScale of [3, 10])
        expect(backdropRadius(v, depthScale)).toBeCloseTo(meshRadius(1 - v / 65535, depthScale) / SKY_RADIUS, 12);
    }
    expect(backdropRadius(0, 5)).toBe(1); // the sky stays on the sphere
  });
});
