/**
 * placeInBlob on synthetic panoramas clipped as an 8-bit-derived HDRI holds them: a sky
 * whose radiance is an aureole around the sun times a brightening towards the horizon, so
 * its clipped blob reaches further below the sun than above it. A glow clipped white is
 * placed at its centre, within 1.5 degrees of the sun; a disk clipping white inside a blob
 * clipped in two channels places the sun, also over a horizon's haze clipped white in the
 * same blob; a coloured blob that would show its disk and does not is the glow of a hidden
 * sun; a blob larger than the largest flooded is left alone.
 */
import { describe, expect, it } from "vitest";
import { directionOfDegrees, directionOfUv } from "../../../src/api/panorama/panorama-directions.ts";
import type { HdrPixels } from "../../../src/scene/analysis/hdr-pixels.ts";
import { clearSkyCosts } from "../../../src/scene/analysis/clear-sky-search.ts";
import { floodedBlobs, placeInBlob as placeWithCost } from "../../../src/scene/analysis/saturated-blob.ts";

/** placeInBlob with the clear sky's costs of the panorama, as detectSun gives them. */
function placeInBlob(image: HdrPixels, seed: number, clip: number, seen = floodedBlobs(image)) {
  return placeWithCost(image, seed, clip, clearSkyCosts(image, clip).at, seen);
}
import { degreesBetween } from "./sun-exports.ts";

const WIDTH = 1024;
const HEIGHT = 512;

/** A panorama whose sky radiance is `radiance(direction)`, grey, clipped at 1; the ground below (and `terrain` above) is 0.1. */
function panorama(radiance: (d: Float64Array) => number, terrain: (d: Float64Array) => boolean = () => false): HdrPixels {
  const rgb = new Float32Array(WIDTH * HEIGHT * 3);
  const d = new Float64Array(3);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      directionOfUv((x + 0.5) / WIDTH, (y + 0.5) / HEIGHT, d);
      const l = d[1]! > 0 && !terrain(d) ? Math.min(1, radiance(d)) : 0.1;
      rgb.fill(l, (y * WIDTH + x) * 3, (y * WIDTH + x) * 3 + 3);
    }
  }
  return { width: WIDTH, height: HEIGHT, rgb };
}

/** Henyey-Greenstein aureole (g = 0.8) times a sky twice as bright at the horizon as 40 degrees up. */
function clearSky(sun: readonly number[], scale: number): (d: Float64Array) => number {
  return (d) => {
    const cos = d[0]! * sun[0]! + d[1]! * sun[1]! + d[2]! * sun[2]!;
    const g = 0.8;
    const phase = (1 - g * g) / (1 + g * g - 2 * g * cos) ** 1.5;
    const elevation = Math.asin(d[1]!);
    return scale * (0.3 + phase / 40) * Math.exp((-elevation / (40 * (Math.PI / 180))) * Math.LN2);
  };
}

/** A sky scale whose blob (about 1 sr) is a little larger than the largest flooded (a cap 30 degrees in radius, 0.84 sr). */
const SCALE_TOO_LARGE = 3.5;

/** The index of the brightest-clipped pixel nearest `direction`. */
function pixelAt(direction: readonly number[]): number {
  const u = (Math.atan2(direction[0]!, -direction[2]!) / (2 * Math.PI) + 0.5 + 1) % 1;
  const v = 0.5 - Math.asin(direction[1]!) / Math.PI;
  return Math.floor(v * HEIGHT) * WIDTH + Math.floor(u * WIDTH);
}

describe("placeInBlob", () => {
  it("places the sun within 1.5 degrees in a glow clipped white, its centre below the sun where the sky brightens towards the horizon", () => {
    const sun = directionOfDegrees(40, 25);
    const blob = placeInBlob(panorama(clearSky(sun, 1.2)), pixelAt(sun), 1);
    expect(blob).not.toBeNull();
    expect(Math.sqrt(blob!.solidAngle / Math.PI) * (180 / Math.PI)).toBeGreaterThan(2);
    expect(blob!.byDisk).toBe(false);
    expect(blob!.direction[1]).toBeLessThan(sun[1]);
    expect(degreesBetween(blob!.direction, sun)).toBeLessThan(1.5);
  });

  it("leaves alone a blob larger than 30 degrees in radius (the sky itself clips)", () => {
    const sun = directionOfDegrees(10, 30);
    const image = panorama(clearSky(sun, SCALE_TOO_LARGE));
    expect(placeInBlob(image, pixelAt(sun), 1, floodedBlobs(image))).toBeNull();
  });

  it("places the sun at its disk where the disk clips in every channel inside a blob clipped in two, terrain in front", () => {
    // A sunset-coloured sky (red and green clip round the sun, blue does not) whose disk, a hundred times brighter
    // than its sky, clips in blue too; the bottom of the disk is hidden by a dark ridge.
    const blob = placeInBlob(sunsetGlow({ disk: true, blue: 0.5 }), pixelAt(SUNSET_SUN), 1);
    expect(blob?.byDisk).toBe(true);
    expect(degreesBetween(blob!.direction, SUNSET_SUN)).toBeLessThan(0.25);
  });

  it("places a high sun at its disk, not in the horizon's haze that clips white below it in the same blob", () => {
    // Red and green clip from the sun 30 degrees up down to a hazy horizon that clips in every channel: of the blob's
    // two white parts the clear sky fits a sun best at the disk.
    const sun = directionOfDegrees(20, 30);
    const sky = clearSky(sun, 1.5);
    const image = colouredPanorama((d) => {
      if (d[1]! <= 0) return [0.05, 0.04, 0.03];
      if (degreesBetween(d, sun) < 0.5) return [100, 100, 100];
      const l = sky(d);
      const haze = 1.5 * Math.exp(-Math.asin(d[1]!) / (3 * (Math.PI / 180)));
      return [1.6 * l + haze, 1.2 * l + haze, 0.5 * l + haze];
    });
    const blob = placeInBlob(image, pixelAt(sun), 1);
    expect(Math.sqrt(blob!.solidAngle / Math.PI) * (180 / Math.PI)).toBeGreaterThan(5);
    expect(blob?.byDisk).toBe(true);
    expect(degreesBetween(blob!.direction, sun)).toBeLessThan(0.25);
  });

  it("finds no sun in a coloured blob whose sky would show a disk clipped in every channel, and shows none (the glow of a hidden sun)", () => {
    expect(placeInBlob(sunsetGlow({ disk: false, blue: 0.5 }), pixelAt(SUNSET_SUN), 1)).toBeNull();
    // Where the sky's blue is too weak for a disk to clip in it, the sun is placed at the blob's centre.
    const blob = placeInBlob(sunsetGlow({ disk: false, blue: 0.002 }), pixelAt(SUNSET_SUN), 1);
    expect(blob?.byDisk).toBe(false);
    expect(degreesBetween(blob!.direction, SUNSET_SUN)).toBeLessThan(1.5);
  });
});

const SUNSET_SUN = directionOfDegrees(-30, 6);

/** A sunset-coloured clipped sky (blue `blue` times its luminance) with a dark ridge below the sun, and its disk when asked. */
function sunsetGlow({ disk, blue }: { disk: boolean; blue: number }): HdrPixels {
  const sky = clearSky(SUNSET_SUN, 1.3);
  const ridge = (d: Float64Array) =>
    Math.asin(d[1]!) < 5.7 * (Math.PI / 180) && Math.abs(Math.atan2(d[0]!, -d[2]!) * (180 / Math.PI) + 30) < 1;
  return colouredPanorama((d) => {
    if (d[1]! <= 0 || ridge(d)) return [0.05, 0.04, 0.03];
    if (disk && degreesBetween(d, SUNSET_SUN) < 0.5) return [100, 100, 100];
    const l = sky(d);
    return [1.6 * l, 1.2 * l, blue * l];
  });
}

/** A panorama whose radiance is `rgb(direction)`, clipped at 1 per channel. */
function colouredPanorama(rgbOf: (d: Float64Array) => number[]): HdrPixels {
  const rgb = new Float32Array(WIDTH * HEIGHT * 3);
  const d = new Float64Array(3);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      directionOfUv((x + 0.5) / WIDTH, (y + 0.5) / HEIGHT, d);
      rgbOf(d).forEach((v, c) => (rgb[(y * WIDTH + x) * 3 + c] = Math.min(1, v)));
    }
  }
  return { width: WIDTH, height: HEIGHT, rgb };
}
