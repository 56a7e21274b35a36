/**
 * The one RGBE decoder: `decodeHdr` (in one call) and `decodeHdrInSlices` (a few scanlines a
 * slice) give Babylon's `RGBE_ReadPixels` floats, float for float, from run-length and flat
 * files and from a file whose run-length scanlines stop part-way (read flat from the start, as
 * Babylon does). pointSampled: a wide panorama read every few pixels keeps its own values (a
 * pixel at the clip level stays there, as an average would not), each the pixel nearest its
 * block's centre.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { RGBE_ReadHeader, RGBE_ReadPixels } from "@babylonjs/core/Misc/HighDynamicRange/hdr.js";
import { describe, expect, it } from "vitest";
import { decodeHdr, decodeHdrInSlices, pointSampled } from "../../../src/scene/analysis/hdr-pixels.ts";
import { countedSlices } from "../scheduling/counted-slices.ts";

const file = new Uint8Array(readFileSync(join(import.meta.dirname, "../../fixtures/real-skies/sky.hdr")));

const header = (width: number, height: number) =>
  new TextEncoder().encode(`#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y ${height} +X ${width}\n`);

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (out.set(p, at), at + p.length), 0);
  return out;
}

/** A flat (not run-length) RGBE file: each pixel's four bytes as they are. */
function flatFile(width: number, height: number): Uint8Array {
  const pixels = Uint8Array.from({ length: width * height * 4 }, (_, i) => (i % 4 === 3 ? 120 + (i % 17) : (i * 37) % 256));
  return concat(header(width, height), pixels);
}

/**
 * A file whose first scanline is run-length encoded (literal runs of each channel) and whose
 * next bytes are not: a reader takes the whole file as flat pixels.
 */
function brokenRunLengthFile(width: number, height: number): Uint8Array {
  const scanline = [2, 2, width >> 8, width & 0xff];
  for (let channel = 0; channel < 4; channel++)
    scanline.push(width, ...Array.from({ length: width }, (_, x) => (channel === 3 ? 128 + x : 10 * channel + x)));
  const rest = Uint8Array.from({ length: width * height * 4 }, (_, i) => (i % 4 === 3 ? 125 : (i * 11) % 256));
  return concat(header(width, height), Uint8Array.from(scanline), rest);
}

describe("decoding a Radiance .hdr", () => {
  it("gives Babylon's floats from a run-length file, in one call and over many slices", async () => {
    const info = RGBE_ReadHeader(file);
    const babylon = RGBE_ReadPixels(file, info);
    const whole = decodeHdr(file);
    expect([whole.width, whole.height]).toEqual([info.width, info.height]);
    expect(whole.rgb).toEqual(babylon);
    const { slices, waits } = countedSlices();
    expect((await decodeHdrInSlices(file, slices)).rgb).toEqual(babylon);
    expect(waits()).toBeGreaterThanOrEqual(info.height / 8);
  });

  it("gives Babylon's floats from a flat file and from one whose run-length scanlines stop", async () => {
    for (const bytes of [flatFile(9, 5), brokenRunLengthFile(10, 6)]) {
      const babylon = RGBE_ReadPixels(bytes, RGBE_ReadHeader(bytes));
      expect(decodeHdr(bytes).rgb).toEqual(babylon);
      expect((await decodeHdrInSlices(bytes, countedSlices().slices)).rgb).toEqual(babylon);
    }
  });
});

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
