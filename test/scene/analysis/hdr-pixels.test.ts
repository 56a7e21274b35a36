/**
 * pointSampled: a wide panorama read every few pixels keeps its own values (a pixel at the
 * clip level stays there, as an average would not), each the pixel nearest its block's centre.
 */
import { describe, expect, it } from "vitest";
import { pointSampled } from "../../../src/scene/analysis/hdr-pixels.ts";

describe("pointSampled", () => {
  it("keeps the pixel nearest each block's centre, its values unchanged; a factor of 1 is the panorama itself", () => {
    const width = 8;
    const height = 4;
    const rgb = new Float32Array(width * height * 3);
    // Pixel value = 10 * row + column in red, clipped (1) in green on odd columns, blue constant.
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) rgb.set([10 * y + x, x % 2 ? 1 : 0.5, 0.25], (y * width + x) * 3);
    const image = { width, height, rgb };
    const half = pointSampled(image, 2);
    expect([half.width, half.height]).toEqual([4, 2]);
    // Blocks of 2 x 2: the kept pixel is the block's lower right one (row 2y + 1, column 2x + 1).
    expect(Array.from(half.rgb.subarray(0, 3))).toEqual([11, 1, 0.25]);
    expect(Array.from(half.rgb.subarray((1 * 4 + 3) * 3, (1 * 4 + 3) * 3 + 3))).toEqual([37, 1, 0.25]);
    expect(pointSampled(image, 1)).toBe(image);
  });
});
