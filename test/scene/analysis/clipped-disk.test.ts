/**
 * clippedDisk on synthetic 1K panoramas: a sun's disk (radius 0.6 degrees, as the local
 * renderer draws it at 1K, its edge anti-aliased) far brighter than the clip level, so every
 * pixel it reaches is flat. Whole, it is placed at its pixels' mean; cut by a dark ridge in
 * front of it, the mean of what shows lies well above the sun, and the circle its uncut
 * rows outline places it, with the share of it that shows.
 */
import { describe, expect, it } from "vitest";
import { directionOfDegrees, directionOfUv } from "../../../src/api/panorama/panorama-directions.ts";
import { clippedDisk } from "../../../src/scene/analysis/clipped-disk.ts";
import type { HdrPixels } from "../../../src/scene/analysis/hdr-pixels.ts";
import { degreesBetween } from "./sun-exports.ts";

const WIDTH = 1024;
const HEIGHT = 512;
const DEG = Math.PI / 180;
const PIXEL = (2 * Math.PI) / WIDTH;
const RADIUS = 0.6 * DEG;
const CLIP = 16;

/** The disk's weight at a pixel whose centre is `angle` from the sun: coverage of an anti-aliased edge. */
const weight = (angle: number) => Math.min(1, Math.max(0, (RADIUS - angle) / PIXEL + 0.5));

/**
 * A sky of 0.5 with the sun at (azimuth, elevation) 2000 times brighter, a ground of 0.03
 * below the horizon and below `ridge` (degrees) above it, clipped at 16. Returns the
 * panorama, its clipped pixels and the share of the disk's light in front of the ridge.
 */
function scene(azimuth: number, elevation: number, ridge: number): { image: HdrPixels; clipped: number[]; shown: number } {
  const sun = directionOfDegrees(azimuth, elevation);
  const rgb = new Float32Array(WIDTH * HEIGHT * 3);
  const d = new Float64Array(3);
  const clipped: number[] = [];
  let all = 0;
  let shown = 0;
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      directionOfUv((x + 0.5) / WIDTH, (y + 0.5) / HEIGHT, d);
      const w = weight(Math.acos(Math.min(1, d[0]! * sun[0] + d[1]! * sun[1] + d[2]! * sun[2])));
      const ground = Math.asin(d[1]!) < ridge * DEG;
      all += w;
      if (!ground) shown += w;
      const value = ground ? 0.03 : Math.min(CLIP, 0.5 + 1000 * w);
      rgb.fill(value, (y * WIDTH + x) * 3, (y * WIDTH + x) * 3 + 3);
      if (value >= CLIP) clipped.push(y * WIDTH + x);
    }
  }
  return { image: { width: WIDTH, height: HEIGHT, rgb }, clipped, shown: shown / all };
}

/** The mean direction of pixels. */
function meanOf(pixels: number[]): number[] {
  const sum = [0, 0, 0];
  const d = new Float64Array(3);
  for (const i of pixels) {
    directionOfUv(((i % WIDTH) + 0.5) / WIDTH, (Math.floor(i / WIDTH) + 0.5) / HEIGHT, d);
    for (let c = 0; c < 3; c++) sum[c]! += d[c]!;
  }
  const n = Math.hypot(...sum);
  return sum.map((v) => v / n);
}

describe("clippedDisk", () => {
  it("places a whole clipped disk at its centre, all of it shown", () => {
    for (const [azimuth, elevation] of [
      [30, 12.3],
      [-100.4, 2.1],
      [179.9, 40],
    ] as const) {
      const { image, clipped } = scene(azimuth, elevation, 0);
      const disk = clippedDisk(image, clipped);
      expect(degreesBetween(disk.direction, directionOfDegrees(azimuth, elevation)), `${azimuth}, ${elevation}`).toBeLessThan(0.1);
      expect(disk.visible).toBe(1);
    }
  });

  it("places a disk half behind a ridge by the circle of its uncut rows, with the share that shows", () => {
    for (const [azimuth, elevation, ridge] of [
      [-19.6, 2.66, 2.66],
      [47.5, 3.1, 3.0],
      [120.2, 5.2, 5.3],
    ] as const) {
      const label = `sun at ${elevation}, ridge at ${ridge}`;
      const sun = directionOfDegrees(azimuth, elevation);
      const { image, clipped, shown } = scene(azimuth, elevation, ridge);
      expect(shown, label).toBeLessThan(0.8);
      // What shows lies above the sun: its mean is off by a third of a degree or more.
      expect(degreesBetween(meanOf(clipped), sun), label).toBeGreaterThan(0.3);
      const disk = clippedDisk(image, clipped);
      expect(degreesBetween(disk.direction, sun), label).toBeLessThan(0.2);
      expect(Math.abs(disk.visible - shown), label).toBeLessThan(0.15);
    }
  });
});
