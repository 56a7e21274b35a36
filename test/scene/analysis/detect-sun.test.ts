/**
 * detectSun on real HDRI exports of the local service, 1024 x 512 (a pixel is 0.35 degrees,
 * the sun disk 1.2 across): the sun the renderer drew is found where it drew it, high at
 * noon, low and in the glow at sunset, warmer at sunset; no sun at night or under overcast;
 * reflections on water, snow and clouds are not taken for it.
 */
import { describe, expect, it } from "vitest";
import { azimuthOfU, directionOfDegrees, directionOfUv } from "../../../src/api/panorama/panorama-directions.ts";
import { detectSun, type DetectedSun, findSun, NO_SUN } from "../../../src/scene/analysis/detect-sun.ts";
import { type HdrPixels, pointSampled } from "../../../src/scene/analysis/hdr-pixels.ts";
import { perez, perezCoefficients } from "../../../src/scene/analysis/preetham.ts";
import { renderPool } from "../../local/imagery/render-fixtures.ts";
import { degreesBetween, sunExport, type SunExport } from "./sun-exports.ts";

const pool = renderPool();
const DEG = 180 / Math.PI;

async function found(prompt: string, seed?: number): Promise<{ sky: SunExport; sun: DetectedSun }> {
  const sky = await sunExport(pool(), prompt, seed);
  const sun = detectSun(sky.hdr);
  expect(sun, `a sun in "${prompt}"`).not.toBeNull();
  // The renderer's own sun, within 2 degrees (in fact within a tenth of one).
  expect(degreesBetween(sun!.direction, sky.truth), prompt).toBeLessThan(2);
  return { sky, sun: sun! };
}

/** Red over blue of the sunlight: larger is warmer. */
const warmth = (sun: DetectedSun) => sun.color[0] / sun.color[2];

/**
 * Azimuth (radians) of the brightest part of the sky just above the horizon (0 to 10
 * degrees up), leaving out what lies within 3 degrees of `sun` (its disk): the glow.
 */
function glowAzimuth(hdr: HdrPixels, sun: DetectedSun): number {
  const columns = new Float64Array(hdr.width);
  const d = new Float64Array(3);
  for (let y = Math.floor(hdr.height * (80 / 180)); y < hdr.height / 2; y++) {
    for (let x = 0; x < hdr.width; x++) {
      directionOfUv((x + 0.5) / hdr.width, (y + 0.5) / hdr.height, d);
      if (degreesBetween(d, sun.direction) < 3) continue;
      const o = (y * hdr.width + x) * 3;
      columns[x]! += 0.2126 * hdr.rgb[o]! + 0.7152 * hdr.rgb[o + 1]! + 0.0722 * hdr.rgb[o + 2]!;
    }
  }
  // Smoothed over 20 degrees, around the seam too.
  const half = Math.round(hdr.width / 36);
  let best = 0;
  let bestSum = -1;
  for (let x = 0; x < hdr.width; x++) {
    let sum = 0;
    for (let k = -half; k <= half; k++) sum += columns[(x + k + hdr.width) % hdr.width]!;
    if (sum > bestSum) [best, bestSum] = [x, sum];
  }
  return azimuthOfU((best + 0.5) / hdr.width);
}

/** A clear sky (the Perez distribution, turbidity 3) lit by a sun at `sun`, its mean about `level`; grey ground below. */
function clearSky(sun: readonly number[], level: number, width = 256): HdrPixels {
  const c = perezCoefficients(3);
  const height = width / 2;
  const rgb = new Float32Array(width * height * 3).fill(level / 2);
  const d = [0, 0, 0];
  for (let y = 0; y < height / 2; y++) {
    for (let x = 0; x < width; x++) {
      directionOfUv((x + 0.5) / width, (y + 0.5) / height, d);
      const gamma = Math.acos(Math.min(1, d[0]! * sun[0]! + d[1]! * sun[1]! + d[2]! * sun[2]!));
      const l = (level / 3) * perez(c, d[1]!, gamma);
      rgb.set([0.8 * l, l, 1.3 * l], (y * width + x) * 3);
    }
  }
  return { width, height, rgb };
}

const angleBetween = (a: number, b: number) => Math.abs(Math.atan2(Math.sin(a - b), Math.cos(a - b)));

describe("detectSun on the local service's HDRI exports", () => {
  it("noon and sunset: a high sun and a low one in the sunset glow, each within 2 degrees of the renderer's, warmer at sunset", async () => {
    const noon = await found("clear desert at noon");
    const sunset = await found("clear desert dunes at sunset");
    expect(noon.sun.elevation * DEG).toBeGreaterThan(45);
    expect(sunset.sun.elevation * DEG).toBeGreaterThan(0);
    expect(sunset.sun.elevation * DEG).toBeLessThan(8);
    expect(angleBetween(glowAzimuth(sunset.sky.hdr, sunset.sun), sunset.sun.azimuth) * DEG).toBeLessThan(20);
    expect(warmth(sunset.sun)).toBeGreaterThan(2 * warmth(noon.sun));
    // The result describes itself: a unit direction matching its angles, colour normalised.
    for (const { sun } of [noon, sunset]) {
      expect(Math.hypot(...sun.direction)).toBeCloseTo(1, 6);
      expect(Math.sin(sun.elevation)).toBeCloseTo(sun.direction[1], 6);
      expect(Math.max(...sun.color)).toBe(1);
      expect(sun.intensity).toBeGreaterThan(0);
      expect(sun.solidAngle).toBeGreaterThan(0);
      // The disk is 0.6 degrees in radius: pi * (0.6 deg)^2 = 3.4e-4 sr.
      expect(sun.solidAngle).toBeLessThan(1e-3);
    }
    // Less light at sunset, through far more air.
    expect(sunset.sun.illuminance).toBeLessThan(noon.sun.illuminance);
  });

  it("is as accurate on other seeds and times of day, wherever the sun is (across the panorama's seam too)", async () => {
    for (const [prompt, seed] of [
      ["clear sunrise over the sea", 1],
      ["clear hills in the morning", 5],
      ["clear afternoon over the plains", 2],
    ] as const) {
      await found(prompt, seed);
    }
    // The same sky turned so that the sun's disk straddles u = 0 and u = 1.
    const { sky, sun } = await found("clear desert at noon", 3);
    const { width, height } = sky.hdr;
    const shift = width - Math.round((sun.azimuth / (2 * Math.PI) + 0.5) * width);
    const rolled = new Float32Array(sky.hdr.rgb.length);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++)
        rolled.set(sky.hdr.rgb.subarray((y * width + x) * 3, (y * width + x) * 3 + 3), (y * width + ((x + shift) % width)) * 3);
    const seam = detectSun({ width, height, rgb: rolled });
    const truth = directionOfDegrees(sky.scene.sun.azimuth + (360 * shift) / width, sky.scene.sun.elevation);
    expect(Math.abs(Math.abs(seam!.azimuth) - Math.PI)).toBeLessThan(0.01);
    expect(degreesBetween(seam!.direction, truth)).toBeLessThan(2);
  });

  it("no sun at night, moon up or not, nor under an overcast sky", async () => {
    for (const prompt of ["moonlit night over the hills", "night city skyline", "overcast meadow at noon"]) {
      const sky = await sunExport(pool(), prompt);
      if (prompt.startsWith("moonlit")) expect(sky.scene.moon.visible && sky.scene.moon.elevation > 0).toBe(true);
      expect(detectSun(sky.hdr), prompt).toBeNull();
    }
  });

  it("is not fooled by the sun's reflection on water, by snow or by clouds", async () => {
    // Each of these skies has brighter things than its sky below the horizon or around the sun.
    await found("clear ocean at sunset", 3);
    await found("alpine lake at noon, clear sky", 2);
    await found("snowy mountains at noon, clear sky", 4);
    await found("cloudy hills at noon", 4);
  });

  it("finds nothing in a black or a uniformly bright panorama, nor in a large bright patch, nor a bright dot the sky is not lit by", () => {
    const flat = (value: number): HdrPixels => ({ width: 256, height: 128, rgb: new Float32Array(256 * 128 * 3).fill(value) });
    expect(detectSun(flat(0))).toBeNull();
    expect(detectSun(flat(3))).toBeNull();
    // A 10-degree patch as bright as a sun (a cloud in full light, magnified) is not compact.
    const patch = flat(0.2);
    for (let y = 30; y < 37; y++) patch.rgb.fill(200, (y * 256 + 100) * 3, (y * 256 + 107) * 3);
    expect(detectSun(patch)).toBeNull();
    // One pixel of 5000, 33 degrees up, casts 2.5 against the sky's 0.63: bright enough for a sun, but a sky lit by
    // no sun at all (flat) or by one elsewhere (a clear sky whose sun is 120 degrees away) says it is not one. In a
    // clear sky lit from its direction it is the sun.
    const dot = (sky: HdrPixels, value: number) => {
      const out = { ...sky, rgb: sky.rgb.slice() };
      out.rgb.fill(value, (40 * 256 + 100) * 3, (40 * 256 + 101) * 3);
      return out;
    };
    const at = [0, 0, 0];
    directionOfUv(100.5 / 256, 40.5 / 128, at);
    expect(detectSun(dot(flat(0.2), 5000))).toBeNull();
    expect(detectSun(dot(clearSky(at, 0.2), 5000))?.source).toBe("measured");
    expect(degreesBetween(detectSun(dot(clearSky(at, 0.2), 5000))!.direction, at)).toBeLessThan(1);
    const elsewhere = directionOfDegrees(azimuthOfU(100.5 / 256) * DEG + 120, 33);
    expect(detectSun(dot(clearSky(elsewhere, 0.2), 5000))).toBeNull();
    // And the pane says why in words.
    expect(findSun(dot(clearSky(elsewhere, 0.2), 5000)).why).toBe(NO_SUN.notLit);
  });

  it("reads a panorama wider than 1K at 1K, and measures the sun it finds there in the whole panorama", () => {
    // A 4K clear sky with a sun disk of 0.53 degrees drawn at its own pixels: reading every fourth pixel, the search
    // sees a part of the disk; the light and the disk's pixels come from all of them.
    const sun = directionOfDegrees(40, 30);
    const sky = clearSky(sun, 0.2, 4096);
    const { width, height, rgb } = sky;
    const d = [0, 0, 0];
    const disk: number[] = [];
    let drawn = 0;
    for (let y = 0; y < height / 2; y++) {
      const solidAngle = ((2 * Math.PI) / width) * (Math.PI / height) * Math.cos((0.5 - (y + 0.5) / height) * Math.PI);
      for (let x = 0; x < width; x++) {
        directionOfUv((x + 0.5) / width, (y + 0.5) / height, d);
        const r = degreesBetween(d, sun) / 0.265;
        if (r > 1) continue;
        // Limb-darkened, as a real disk is (a flat top is a clipped one).
        const value = 3000 * (1 - 0.6 * (1 - Math.sqrt(1 - r * r)));
        const i = y * width + x;
        drawn += (value - (0.2126 * rgb[i * 3]! + 0.7152 * rgb[i * 3 + 1]! + 0.0722 * rgb[i * 3 + 2]!)) * solidAngle;
        rgb.fill(value, i * 3, i * 3 + 3);
        disk.push(i);
      }
    }
    const found = findSun(sky).sun!;
    expect(found.source).toBe("measured");
    expect(degreesBetween(found.direction, sun)).toBeLessThan(0.02);
    expect(Math.abs(found.illuminance / drawn - 1)).toBeLessThan(0.01);
    // Every pixel of the drawn disk is listed, as the whole panorama holds it.
    expect(found.disk.at).toMatchObject({ width, height });
    expect(disk.every((i) => found.disk.at!.indices.includes(i))).toBe(true);
    // What the search found: the same sun, its light read from the pixels it saw.
    const read = findSun(pointSampled(sky, 4)).sun!;
    expect(read.source).toBe("measured");
    expect(degreesBetween(read.direction, found.direction)).toBeLessThan(0.2);
    expect(read.disk.at).toMatchObject({ width: 1024, height: 512 });
  });
});
