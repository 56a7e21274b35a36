/**
 * The HDR environment's CPU steps in slices (sliced-cube.ts) give what Babylon's one-task
 * steps give, float for float: the same faces, the same harmonics (its pixels:
 * hdr-pixels.test.ts). And no slice runs the whole picture: the work waits for slices many times.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PanoramaToCubeMapTools } from "@babylonjs/core/Misc/HighDynamicRange/panoramaToCubemap.js";
import { CubeMapToSphericalPolynomialTools } from "@babylonjs/core/Misc/HighDynamicRange/cubemapToSphericalPolynomial.js";
import { describe, expect, test } from "vitest";
import { decodeHdr } from "../../../src/scene/analysis/hdr-pixels.ts";
import { cubeHarmonics, panoramaToCube } from "../../../src/scene/environment/sliced-cube.ts";
import { countedSlices } from "../scheduling/counted-slices.ts";

const file = new Uint8Array(readFileSync(join(import.meta.dirname, "../../fixtures/real-skies/sky.hdr")));

describe("an HDR panorama to a lit cube in slices", () => {
  test("makes Babylon's faces and harmonics, a few rows a slice", async () => {
    const { width, height, rgb: data } = decodeHdr(file);
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
