/**
 * The sun disk of the HDR radiance: the disk the display shows (celestial.ts, radiance 150)
 * carries about 1/100 of the light the renderer shades its ground with, so the radiance
 * written to radiance.hdr replaces it with a disk of the same shape and pixels whose
 * integral over the render's own pixel grid is exactly `sky.direct` (the sun's irradiance
 * on a surface facing it, reddened by the atmosphere at the sun's elevation), before the
 * clouds and fog in front of each pixel. The display keeps the disk it always had.
 *
 * The render stores each sky pixel's share of the disk (coverage x limb x what clouds and
 * fog let through) in a band over the disk's rows; `addSunEnergy` then swaps the displayed
 * disk for the energetic one in a finished band of rows and returns the irradiance it holds.
 */
import { directionOfUv, elevationOfV } from "../../../../api/panorama/panorama-directions.ts";
import { type CelestialParams, SUN_DISK, SUN_DISK_COLOUR, sunWeight } from "./celestial.ts";
import { type SkyParams, viewTransmittance } from "./sky.ts";
import { readRgbe, writeRgbe } from "../../formats/rgbe-pixel.ts";
import type { RowBand } from "../../pipeline/render-buffers.ts";

/** Radiance of the sun's disk (per channel, weight 1, before the view's transmittance). */
export interface SunEnergy {
  radiance: Float64Array;
  /** Rows [y0, y1) the disk can touch. */
  y0: number;
  y1: number;
}

/**
 * The disk radiance whose sum over the pixels of a width x height panorama is the sun's
 * direct irradiance. `direct` is the clear-sky direct light (before an overcast deck dims
 * it: the deck's clouds occlude the disk pixel by pixel instead).
 */
export function prepareSunEnergy(sky: SkyParams, C: CelestialParams, direct: ArrayLike<number>, width: number, height: number): SunEnergy {
  const radiance = new Float64Array(3);
  const rows = diskRows(C, height);
  if (!C.sunVisible || !sky.sunIsLight) return { radiance, ...rows };
  const sum = new Float64Array(3);
  const trans = new Float64Array(3);
  forDiskPixels(C, width, height, rows, (y, x, weight, solidAngle) => {
    viewTransmittance(sky, Math.sin(elevationOfV((y + 0.5) / height)), trans);
    for (let c = 0; c < 3; c++) sum[c]! += weight * trans[c]! * solidAngle;
  });
  for (let c = 0; c < 3; c++) radiance[c] = sum[c]! > 0 ? direct[c]! / sum[c]! : 0;
  return { radiance, ...rows };
}

/** Rows whose pixels the sun's disk may reach. */
export function diskRows(C: CelestialParams, height: number): { y0: number; y1: number } {
  const reach = Math.acos(Math.min(1, C.sunReach)) + Math.PI / height;
  const elevation = Math.asin(Math.max(-1, Math.min(1, C.sy)));
  const top = Math.min(Math.PI / 2, elevation + reach);
  const bottom = Math.max(-Math.PI / 2, elevation - reach);
  return {
    y0: Math.max(0, Math.floor((0.5 - top / Math.PI) * height)),
    y1: Math.min(height, Math.ceil((0.5 - bottom / Math.PI) * height) + 1),
  };
}

const dir = new Float64Array(3);

/** Calls fn for every pixel of rows [y0, y1) on the disk, with its weight and solid angle. */
function forDiskPixels(
  C: CelestialParams,
  width: number,
  height: number,
  rows: { y0: number; y1: number },
  fn: (y: number, x: number, weight: number, solidAngle: number) => void,
): void {
  const cell = ((2 * Math.PI) / width) * (Math.PI / height);
  for (let y = rows.y0; y < rows.y1; y++) {
    const solidAngle = cell * Math.cos(elevationOfV((y + 0.5) / height));
    for (let x = 0; x < width; x++) {
      directionOfUv((x + 0.5) / width, (y + 0.5) / height, dir);
      const weight = sunWeight(C, dir[0]!, dir[1]!, dir[2]!);
      if (weight > 0) fn(y, x, weight, solidAngle);
    }
  }
}

/**
 * Swaps the displayed disk for the energetic one in rows [y0, y1) of `radiance` (RGBE
 * bytes), where `shares` holds each sky pixel's visible share of the disk; `keep(x, y)` is the share
 * of the render a pixel keeps (an overlay covers the rest). Returns the irradiance (linear
 * RGB) the band's disk pixels now carry.
 */
export function addSunEnergy(
  sky: SkyParams,
  energy: SunEnergy,
  width: number,
  height: number,
  radiance: Uint8Array,
  shares: RowBand<Float32Array>,
  y0: number,
  y1: number,
  keep?: (x: number, y: number) => number,
): [number, number, number] {
  const total: [number, number, number] = [0, 0, 0];
  const trans = new Float64Array(3);
  const cell = ((2 * Math.PI) / width) * (Math.PI / height);
  const rgb = new Float64Array(3);
  for (let y = Math.max(y0, energy.y0, shares.y0); y < Math.min(y1, energy.y1, shares.y1); y++) {
    const sp = Math.sin(elevationOfV((y + 0.5) / height));
    viewTransmittance(sky, sp, trans);
    const solidAngle = cell * Math.sqrt(1 - sp * sp);
    for (let x = 0; x < width; x++) {
      const share = shares.data[(y - shares.y0) * width + x]!;
      if (!(share > 0)) continue;
      const seen = share * (keep ? keep(x, y) : 1);
      const o = (y * width + x) * 4;
      readRgbe(radiance, o, rgb);
      for (let c = 0; c < 3; c++) {
        const shown = SUN_DISK * SUN_DISK_COLOUR[c]! * seen * trans[c]!;
        const real = energy.radiance[c]! * seen * trans[c]!;
        rgb[c] = Math.max(0, rgb[c]! + real - shown);
        total[c]! += real * solidAngle;
      }
      writeRgbe(rgb[0]!, rgb[1]!, rgb[2]!, radiance, o);
    }
  }
  return total;
}
