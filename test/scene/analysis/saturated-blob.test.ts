/**
 * placeInBlob on synthetic panoramas clipped as an 8-bit-derived HDRI holds them: a sky
 * whose radiance is an aureole around the sun times a brightening towards the horizon, so
 * its clipped blob reaches further below the sun than above it. The sun is placed within
 * half a degree (the blob's own centre is degrees off), within 1.1 degrees where the blob
 * merges with a clipped horizon band, and at its azimuth where a peak cuts one side of the
 * glow; a saturated patch in a sky that does not brighten
 * towards it (snow, a lit cloud) and a blob larger than the sky fitted around it are not.
 */
import { describe, expect, it } from "vitest";
import { directionOfDegrees, directionOfUv } from "../../../src/api/panorama/panorama-directions.ts";
import type { HdrPixels } from "../../../src/scene/analysis/hdr-pixels.ts";
import { floodedBlobs, placeInBlob } from "../../../src/scene/analysis/saturated-blob.ts";
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

/** A sky scale whose blob (about 1 sr) is a little larger than the window fitted around it (0.84 sr). */
const SCALE_TOO_LARGE = 3.5;

/** The index of the brightest-clipped pixel nearest `direction`. */
function pixelAt(direction: readonly number[]): number {
  const u = (Math.atan2(direction[0]!, -direction[2]!) / (2 * Math.PI) + 0.5 + 1) % 1;
  const v = 0.5 - Math.asin(direction[1]!) / Math.PI;
  return Math.floor(v * HEIGHT) * WIDTH + Math.floor(u * WIDTH);
}

describe("placeInBlob", () => {
  it("places the sun within half a degree where its blob reaches further towards the horizon", () => {
    const sun = directionOfDegrees(40, 25);
    const image = panorama(clearSky(sun, 1.2));
    const blob = placeInBlob(image, pixelAt(sun), 1);
    expect(blob).not.toBeNull();
    // The blob is several degrees across and lopsided: its own centre lies below the sun.
    expect(Math.sqrt(blob!.solidAngle / Math.PI) * (180 / Math.PI)).toBeGreaterThan(2);
    const centre = [0, 0, 0];
    for (const i of blob!.pixels) {
      const d = new Float64Array(3);
      directionOfUv(((i % WIDTH) + 0.5) / WIDTH, (Math.floor(i / WIDTH) + 0.5) / HEIGHT, d);
      for (let c = 0; c < 3; c++) centre[c]! += d[c]!;
    }
    const norm = Math.hypot(...centre);
    expect(
      degreesBetween(
        centre.map((c) => c / norm),
        sun,
      ),
    ).toBeGreaterThan(0.5);
    expect(degreesBetween(blob!.direction, sun)).toBeLessThan(0.5);
  });

  it("refuses a saturated patch in a sky that does not brighten towards it", () => {
    const patch = directionOfDegrees(-60, 20);
    const image = panorama((d) => (degreesBetween(d, patch) < 3 ? 1 : 0.3 * Math.exp(-Math.asin(d[1]!))));
    expect(placeInBlob(image, pixelAt(patch), 1)).toBeNull();
  });

  it("places the sun where its blob merges with a clipped horizon band, from the blob's symmetry and the sky around it", () => {
    // A hazy horizon clips all round below 3 degrees; the sun's aureole clips down to it. Hills up to 6 degrees hide
    // it from 45 to 150 degrees of longitude, on one side of the sun only: the blob's mean lies away from them.
    const sun = directionOfDegrees(40, 24);
    const sky = clearSky(sun, 1.9);
    const hills = (d: Float64Array) => {
      const longitude = Math.atan2(d[0]!, -d[2]!) * (180 / Math.PI);
      return longitude > 45 && longitude < 150 && Math.asin(d[1]!) < 6 * (Math.PI / 180);
    };
    const image = panorama((d) => sky(d) + 2 * Math.exp(-Math.asin(d[1]!) / (4 * (Math.PI / 180))), hills);
    const blob = placeInBlob(image, pixelAt(sun), 1);
    expect(blob).not.toBeNull();
    // Far larger than a clipped aureole alone (10 degrees in radius: the largest blob placed before).
    expect(Math.sqrt(blob!.solidAngle / Math.PI) * (180 / Math.PI)).toBeGreaterThan(10);
    // Its azimuth from the rows that end in sky at both ends, its elevation a quarter-degree step or so high.
    expect(Math.abs(Math.atan2(blob!.direction[0], -blob!.direction[2]) * (180 / Math.PI) - 40)).toBeLessThan(0.2);
    expect(degreesBetween(blob!.direction, sun)).toBeLessThan(1.1);
  });

  it("places the sun's azimuth from the rows of its blob that end in sky, where a peak in front of the glow cuts the others", () => {
    // A peak rising to 14 degrees from 1 to 25 degrees of longitude cuts the right side of the glow of a sun 10
    // degrees up at 0: the midpoints of the rows it cuts lie left of the sun. The rows above it end in sky.
    const sun = directionOfDegrees(0, 10);
    const peak = (d: Float64Array) => {
      const longitude = Math.atan2(d[0]!, -d[2]!) * (180 / Math.PI);
      return longitude > 1 && longitude < 25 && Math.asin(d[1]!) < 14 * (Math.PI / 180);
    };
    const image = panorama(clearSky(sun, 1.2), peak);
    const blob = placeInBlob(image, pixelAt(directionOfDegrees(0, 12)), 1);
    expect(blob).not.toBeNull();
    expect(Math.abs(Math.atan2(blob!.direction[0], -blob!.direction[2]) * (180 / Math.PI))).toBeLessThan(0.5);
  });

  it("leaves alone a blob larger than the sky fitted around it (the sky itself clips)", () => {
    const sun = directionOfDegrees(10, 30);
    const image = panorama(clearSky(sun, SCALE_TOO_LARGE));
    expect(placeInBlob(image, pixelAt(sun), 1, floodedBlobs(image))).toBeNull();
  });

  it("places the sun at its disk where the disk clips in every channel inside a blob clipped in two, past a white fleck and terrain in front", () => {
    // A sunset-coloured sky (red and green clip round the sun, blue does not) whose disk, a hundred times brighter
    // than its sky, clips in blue too; the bottom of the disk is hidden by a dark ridge, and a white fleck of
    // paint sits in the blob 3 degrees below the sun.
    const image = sunsetWithFleck({ disk: true, fleck: true, blue: 0.5 });
    const blob = placeInBlob(image, pixelAt(SUNSET_SUN), 1);
    expect(blob).not.toBeNull();
    expect(degreesBetween(blob!.direction, SUNSET_SUN)).toBeLessThan(0.25);
  });

  it("does not take a white fleck in the blob for the disk where the sky fits far worse around it", () => {
    // A deep red sky (blue a thousandth of red: a disk so reddened need not clip in blue); the disk does not show, the
    // sky's fit places the sun, not the fleck.
    const blob = placeInBlob(sunsetWithFleck({ disk: false, fleck: true, blue: 0.002 }), pixelAt(SUNSET_SUN), 1);
    expect(blob).not.toBeNull();
    expect(degreesBetween(blob!.direction, FLECK)).toBeGreaterThan(2);
  });

  it("finds no sun in a coloured blob whose sky would show a disk clipped in every channel, and shows none (the glow of a hidden sun)", () => {
    expect(placeInBlob(sunsetWithFleck({ disk: false, fleck: false, blue: 0.5 }), pixelAt(SUNSET_SUN), 1)).toBeNull();
    // Where the sky's blue is too weak for a disk to clip in it, the fit's sun stands.
    expect(placeInBlob(sunsetWithFleck({ disk: false, fleck: false, blue: 0.002 }), pixelAt(SUNSET_SUN), 1)).not.toBeNull();
  });
});

const SUNSET_SUN = directionOfDegrees(-30, 6);
const FLECK = directionOfDegrees(-35, 2.5);

/** A sunset-coloured clipped sky (blue `blue` times its luminance) with a dark ridge below the sun, and its disk and a white fleck in its blob when asked. */
function sunsetWithFleck({ disk, fleck, blue }: { disk: boolean; fleck: boolean; blue: number }): HdrPixels {
  const sky = clearSky(SUNSET_SUN, 1.3);
  const ridge = (d: Float64Array) =>
    Math.asin(d[1]!) < 5.7 * (Math.PI / 180) && Math.abs(Math.atan2(d[0]!, -d[2]!) * (180 / Math.PI) + 30) < 1;
  return colouredPanorama((d) => {
    if (d[1]! <= 0 || ridge(d)) return [0.05, 0.04, 0.03];
    if ((disk && degreesBetween(d, SUNSET_SUN) < 0.5) || (fleck && degreesBetween(d, FLECK) < 0.5)) return [100, 100, 100];
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
