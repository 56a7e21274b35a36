/**
 * clearSkyCosts on a synthetic Perez sky (turbidity 2) clipped at 1.0 within 10 degrees of its sun, with a
 * lit cloud 25 degrees away clipped too: a sun at the sky's own sun costs the lattice's
 * least, one on the cloud twice detect-sun.ts's CLOUD_EXCESS (0.0055) more, and the
 * lattice's best lies in the sun's blob. And bestClippedSpot on such a sky whose sun clips
 * as a small disk while larger clouds near the zenith clip too, and flecks smaller than the
 * sun's disk: the spot the clear sky points to is the sun's, whichever is larger or read
 * first; with no spot as large as the sun's disk there is none.
 */
import { describe, expect, it } from "vitest";
import { directionOfDegrees, directionOfUv } from "../../../src/api/panorama/panorama-directions.ts";
import { bestClippedSpot, clearSkyCosts } from "../../../src/scene/analysis/clear-sky-search.ts";
import type { HdrPixels } from "../../../src/scene/analysis/hdr-pixels.ts";
import { perez, perezCoefficients } from "../../../src/scene/analysis/preetham.ts";
import { degreesBetween } from "./sun-exports.ts";

/**
 * A grey panorama `width` wide of the Perez sky for `sun`, scaled to `scale` at the zenith, with
 * `cloud` at 5 (clipped), clipped at 1; ground 0.1.
 */
function panorama(sun: readonly number[], scale: number, cloud: (d: Float64Array) => boolean, width = 512): HdrPixels {
  const height = width / 2;
  const c = perezCoefficients(2);
  const zenith = perez(c, 1, Math.acos(sun[1]!));
  const rgb = new Float32Array(width * height * 3);
  const d = new Float64Array(3);
  for (let i = 0; i < width * height; i++) {
    directionOfUv(((i % width) + 0.5) / width, (Math.floor(i / width) + 0.5) / height, d);
    const gamma = Math.acos(Math.min(1, d[0]! * sun[0]! + d[1]! * sun[1]! + d[2]! * sun[2]!));
    const l = d[1]! <= 0 ? 0.1 : cloud(d) ? 5 : (scale * perez(c, d[1]!, gamma)) / zenith;
    rgb.fill(Math.min(1, l), i * 3, i * 3 + 3);
  }
  return { width, height, rgb };
}

describe("clearSkyCosts", () => {
  it("costs a sun on a clipped cloud far more than the sky's own sun, whose blob holds the lattice's best", () => {
    const sun = directionOfDegrees(10, 35);
    const cloudAt = directionOfDegrees(-20, 50);
    const image = panorama(sun, 0.2, (d) => degreesBetween(d, cloudAt) < 4);
    const costs = clearSkyCosts(image, 1);
    expect(costs.at(sun)).toBeLessThan(costs.least + 1e-3);
    expect(costs.at(cloudAt) - costs.least).toBeGreaterThan(0.0055);
    const best = new Float64Array(3);
    directionOfUv(((costs.best % image.width) + 0.5) / image.width, (Math.floor(costs.best / image.width) + 0.5) / image.height, best);
    expect(degreesBetween(best, sun)).toBeLessThan(5);
  });

  it("has no lattice where nothing clips", () => {
    const costs = clearSkyCosts(
      panorama(directionOfDegrees(0, 30), 0.01, () => false),
      1,
    );
    expect(costs.best).toBe(-1);
    expect(costs.least).toBe(Infinity);
  });
});

const SUN = directionOfDegrees(40, 45);
const CLOUDS = [directionOfDegrees(-60, 80), directionOfDegrees(150, 75)];
const FLECK = directionOfDegrees(-100, 30);

describe("bestClippedSpot", () => {
  it("finds the sun's clipped disk among larger clipped clouds near the zenith, read first", () => {
    const image = panorama(SUN, 0.1, (d) => degreesBetween(d, SUN) < 0.6 || CLOUDS.some((c) => degreesBetween(d, c) < 3), 1024);
    const spot = bestClippedSpot(image, 1, clearSkyCosts(image, 1).at);
    expect(spot).not.toBeNull();
    expect(degreesBetween(spot!.direction, SUN)).toBeLessThan(0.5);
  });

  it("takes no spot smaller than the sun's disk, and none when no spot is as large", () => {
    const image = panorama(SUN, 0.1, (d) => degreesBetween(d, FLECK) < 0.1, 1024);
    expect(bestClippedSpot(image, 1, clearSkyCosts(image, 1).at)).toBeNull();
  });
});
