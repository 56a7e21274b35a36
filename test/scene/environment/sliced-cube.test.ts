/**
 * The HDR environment's CPU steps in slices (rgbe-decoding.ts, sliced-cube.ts) give what
 * Babylon's one-task steps give, float for float: the same pixels from run-length and flat
 * files, the same faces, the same harmonics. And no slice runs the whole picture: the work
 * waits for slices many times.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { RGBE_ReadHeader, RGBE_ReadPixels } from "@babylonjs/core/Misc/HighDynamicRange/hdr.js";
import { PanoramaToCubeMapTools } from "@babylonjs/core/Misc/HighDynamicRange/panoramaToCubemap.js";
import { CubeMapToSphericalPolynomialTools } from "@babylonjs/core/Misc/HighDynamicRange/cubemapToSphericalPolynomial.js";
import { describe, expect, test } from "vitest";
import { decodeRgbe } from "../../../src/scene/environment/rgbe-decoding.ts";
import { cubeHarmonics, panoramaToCube } from "../../../src/scene/environment/sliced-cube.ts";
import { WorkSlices } from "../../../src/scene/scheduling/work-slices.ts";

const file = new Uint8Array(readFileSync(join(import.meta.dirname, "../../fixtures/real-skies/sky.hdr")));

/** Slices that are spent at once (every look at the clock waits), counted. */
function countedSlices(): { slices: WorkSlices; waits: () => number } {
  let waits = 0;
  const slices = new WorkSlices(async () => {
    waits++;
    return { timeRemaining: () => 0 };
  });
  return { slices, waits: () => waits };
}

/** A flat (not run-length) RGBE file: each pixel's four bytes as they are. */
function flatFile(width: number, height: number): Uint8Array {
  const header = new TextEncoder().encode(`#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y ${height} +X ${width}\n`);
  const pixels = Uint8Array.from({ length: width * height * 4 }, (_, i) => (i % 4 === 3 ? 120 + (i % 17) : (i * 37) % 256));
  const out = new Uint8Array(header.length + pixels.length);
  out.set(header);
  out.set(pixels, header.length);
  return out;
}

describe("an HDR panorama to a lit cube in slices", () => {
  test("decodes a run-length file to Babylon's floats, over many slices", async () => {
    const { slices, waits } = countedSlices();
    const ours = await decodeRgbe(file, slices);
    const info = RGBE_ReadHeader(file);
    expect([ours.width, ours.height]).toEqual([info.width, info.height]);
    expect(ours.data).toEqual(RGBE_ReadPixels(file, info));
    expect(waits()).toBeGreaterThanOrEqual(info.height / 8);
  });

  test("decodes a flat file to Babylon's floats", async () => {
    const flat = flatFile(9, 5);
    const ours = await decodeRgbe(flat, countedSlices().slices);
    expect(ours.data).toEqual(RGBE_ReadPixels(flat, RGBE_ReadHeader(flat)));
  });

  test("makes Babylon's faces and harmonics, a few rows a slice", async () => {
    const { width, height, data } = await decodeRgbe(file, countedSlices().slices);
    const size = 32;
    const { slices, waits } = countedSlices();
    const cube = await panoramaToCube(data, width, height, size, slices);
    expect(waits()).toBeGreaterThanOrEqual((6 * size) / 4);
    const theirs = PanoramaToCubeMapTools.ConvertPanoramaToCubemap(data, width, height, size);
    for (const face of ["right", "left", "up", "down", "front", "back"] as const) expect(cube[face]).toEqual(theirs[face]);
    const polynomial = await cubeHarmonics(cube, slices);
    expect(waits()).toBeGreaterThanOrEqual((12 * size) / 4);
    expect(polynomial).toEqual(CubeMapToSphericalPolynomialTools.ConvertCubeMapToSphericalPolynomial(theirs));
  });
});
