/**
 * The sun of the HDR radiance carries the light the renderer shades its ground with: its
 * disk, integrated over the pixels around it, is scene.json's `sun.irradiance`, which is
 * the renderer's clear-sky direct light reddened at the sun's elevation, occluded by the
 * clouds in front of it (overcast), and nothing at night. The picture keeps its disk: at a
 * low sun the JPEG shows the disk the display always had, not the tone map of the HDR one.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { directionOfDegrees, directionOfUv } from "../../../../../src/api/panorama/panorama-directions.ts";
import type { SceneSpec } from "../../../../../src/local/imagery/scene/scene-spec.ts";
import { prepareSky } from "../../../../../src/local/imagery/scene/sky/sky.ts";
import { prepareScene, sunDiskRows } from "../../../../../src/local/imagery/scene/prepare-scene.ts";
import { resolveRender } from "../../../../../src/local/imagery/pipeline/scene-resolution.ts";
import type { Look } from "../../../../../src/local/imagery/contract.ts";
import { displayValues } from "../../../../../src/local/imagery/render/looks/tone-map.ts";
import { readJpeg, readRadiance, renderPool, request, tempDir, W, H } from "../../render-fixtures.ts";

const pool = renderPool();
const luminance = (c: ArrayLike<number>) => 0.2126 * c[0]! + 0.7152 * c[1]! + 0.0722 * c[2]!;

async function render(prompt: string, seed: number, size = { width: W, height: H }): Promise<{ dir: string; scene: SceneSpec }> {
  const dir = tempDir("sun-energy");
  await pool().generate(request({ prompt, seed, model: 3, variant: null, size }), dir);
  return { dir, scene: JSON.parse(readFileSync(join(dir, "scene.json"), "utf8")) as SceneSpec };
}

/** What the pixels within 2 degrees of the sun add to the sky 2.5 to 4 degrees out (RGB irradiance), and the brightest pixel. */
function diskOf(dir: string, scene: SceneSpec): { irradiance: number[]; peak: number } {
  const hdr = readRadiance(dir);
  const sun = directionOfDegrees(scene.sun.azimuth, scene.sun.elevation);
  const d = new Float64Array(3);
  const inner: [number, number][] = [];
  const ring = [0, 0, 0];
  let ringWeight = 0;
  let peak = -1;
  for (let y = 0; y < hdr.height / 2; y++) {
    const solid = ((2 * Math.PI) / hdr.width) * (Math.PI / hdr.height) * Math.sin(((y + 0.5) / hdr.height) * Math.PI);
    for (let x = 0; x < hdr.width; x++) {
      directionOfUv((x + 0.5) / hdr.width, (y + 0.5) / hdr.height, d);
      const angle = (Math.acos(Math.min(1, d[0]! * sun[0] + d[1]! * sun[1] + d[2]! * sun[2])) * 180) / Math.PI;
      const i = (y * hdr.width + x) * 3;
      if (angle < 2) {
        inner.push([i, solid]);
        if (peak < 0 || luminance(hdr.rgb.subarray(i, i + 3)) > luminance(hdr.rgb.subarray(peak, peak + 3))) peak = i;
      } else if (angle >= 2.5 && angle < 4) {
        for (let c = 0; c < 3; c++) ring[c]! += hdr.rgb[i + c]! * solid;
        ringWeight += solid;
      }
    }
  }
  const sky = ring.map((v) => v / ringWeight);
  const irradiance = [0, 0, 0];
  for (const [i, solid] of inner) for (let c = 0; c < 3; c++) irradiance[c]! += Math.max(0, hdr.rgb[i + c]! - sky[c]!) * solid;
  return { irradiance, peak };
}

describe("the sun's energy in the HDR radiance", () => {
  it("a clear noon: the disk carries the direct light the ground is shaded with, as scene.json records", async () => {
    const { dir, scene } = await render("clear desert at noon", 3);
    const recorded = scene.sun.irradiance!;
    const direct = prepareSky(scene).direct;
    for (let c = 0; c < 3; c++) expect(recorded[c]! / direct[c]!).toBeGreaterThan(0.97);
    for (let c = 0; c < 3; c++) expect(recorded[c]! / direct[c]!).toBeLessThan(1.0001);
    const disk = diskOf(dir, scene).irradiance;
    for (let c = 0; c < 3; c++) expect(Math.abs(disk[c]! / recorded[c]! - 1)).toBeLessThan(0.05);
    // Far more than the sky casts on an upward surface (about 1): shadows as deep as the ground's.
    expect(luminance(recorded)).toBeGreaterThan(3);
  });

  it("a sunset: reddened through the same air, and the picture keeps the disk the display always had", async () => {
    const { dir, scene } = await render("clear desert dunes at sunset", 1, { width: 1024, height: 512 });
    expect(scene.sun.elevation).toBeLessThan(8);
    const recorded = scene.sun.irradiance!;
    const direct = prepareSky(scene).direct;
    // The direct light, less what the thin haze near the horizon takes from the disk.
    for (let c = 0; c < 3; c++) expect(recorded[c]! / direct[c]!).toBeGreaterThan(0.8);
    for (let c = 0; c < 3; c++) expect(recorded[c]! / direct[c]!).toBeLessThan(1.0001);
    expect(recorded[0] / recorded[2]).toBeGreaterThan(4);
    const { irradiance, peak } = diskOf(dir, scene);
    for (let c = 0; c < 3; c++) expect(Math.abs(irradiance[c]! / recorded[c]! - 1)).toBeLessThan(0.05);
    // Tone-mapping the HDR reproduces the JPEG around the sun, but not at its disk: the HDR
    // disk is far brighter (its faint edge pixels would show brighter), the JPEG keeps the old
    // one. (The display is rendered before the disk gets its energy: a sky renders to the very
    // bytes it did before the HDR carried the sun.)
    const hdr = readRadiance(dir);
    const jpeg = await readJpeg(dir);
    const [width, height] = [jpeg.width, jpeg.height];
    expect([width, height]).toEqual([hdr.width, hdr.height]);
    const sun = directionOfDegrees(scene.sun.azimuth, scene.sun.elevation);
    const d = new Float64Array(3);
    const shown = new Float64Array(3);
    let diskMax = 0;
    let ringSum = 0;
    let ringCount = 0;
    for (let y = 0; y < height / 2; y++) {
      for (let x = 0; x < width; x++) {
        directionOfUv((x + 0.5) / width, (y + 0.5) / height, d);
        const angle = (Math.acos(Math.min(1, d[0]! * sun[0] + d[1]! * sun[1] + d[2]! * sun[2])) * 180) / Math.PI;
        if (angle >= 4) continue;
        const o = (y * width + x) * 3;
        displayValues(hdr.rgb, o, scene, shown, 0);
        const diff = Math.max(...[0, 1, 2].map((c) => Math.abs(shown[c]! - jpeg.data[o + c]!)));
        if (angle < 2) diskMax = Math.max(diskMax, diff);
        else if (angle >= 2.5) [ringSum, ringCount] = [ringSum + diff, ringCount + 1];
      }
    }
    // JPEG noise and dithering around it (about 3 levels); at the disk's edge, 14 here.
    expect(ringSum / ringCount).toBeLessThan(6);
    expect(diskMax).toBeGreaterThan(10);
    expect(peak).toBeGreaterThan(0);
  });

  it("overcast clouds occlude the disk; at night there is none", async () => {
    const grey = await render("overcast day over the hills", 2);
    expect(grey.scene.sun.elevation).toBeGreaterThan(10);
    const clear = luminance(prepareSky({ ...grey.scene, weather: "clear", fog: 0.05, clouds: null }).direct);
    expect(luminance(grey.scene.sun.irradiance!)).toBeLessThan(0.2 * clear);
    const night = await render("moonlit night over the hills", 7);
    expect(night.scene.sun.irradiance).toEqual([0, 0, 0]);
  });

  it("a render keeps the disk's shares over the very rows its workers give the disk, whatever the look", async () => {
    const rows = async (prompt: string, look: Look) => {
      const { scene } = await resolveRender(request({ prompt, look, seed: 3 }));
      const { sunEnergy } = prepareScene(scene, 2048, 1024);
      expect(sunDiskRows(scene, 2048, 1024)).toEqual([sunEnergy.y0, sunEnergy.y1]);
      return [sunEnergy.y0, sunEnergy.y1];
    };
    for (const prompt of ["clear desert at noon", "mountains at sunrise"]) await rows(prompt, "photoreal");
    // The neon look moves a noon sun down to a sunset: the rows follow it.
    expect(await rows("clear desert at noon", "neon")).not.toEqual(await rows("clear desert at noon", "photoreal"));
  });
});
