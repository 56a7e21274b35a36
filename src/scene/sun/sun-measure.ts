/**
 * Measures one bright spot at full resolution, in a window of WINDOW_DEG around it: the sky
 * behind it (the mean of the ring between CORE_DEG and WINDOW_DEG), then what the spot adds
 * to that sky inside CORE_DEG: its irradiance, colour, size, and its direction as the
 * excess-weighted mean of its pixels' directions (sub-pixel, and seamless across u = 0).
 * A spot is rejected when it is not compact (a lit cloud) or barely above its surroundings.
 */
import { azimuthOfU, directionOfUv, elevationOfV, uOfDirection, vOfDirection } from "../../api/panorama/panorama-directions.ts";
import type { DetectedSun } from "./detect-sun.ts";
import type { HdrPixels } from "./hdr-pixels.ts";
import { LUMA, luminanceAt, skyRows, type SunCandidate } from "./sun-candidates.ts";

const DEG = Math.PI / 180;
/** Radius of the window read around a spot. */
const WINDOW_DEG = 4;
/** Radius inside which pixels may belong to the sun; the ring outside it is its sky. */
const CORE_DEG = 2.5;
/** Largest radius of the disk's half-maximum region: the sun is half a degree across. */
const MAX_RADIUS_DEG = 1.5;
/** Pixels adding less than this fraction of the peak's excess are sky (glow, haze). */
const EDGE = 0.02;
/** Least ratio of the peak to the sky around it. */
const LOCAL_CONTRAST = 3;

/** A measured spot: the sun it would be, and its brightest pixel's luminance. */
export interface MeasuredSpot {
  sun: DetectedSun;
  peak: number;
}

type PixelVisitor = (i: number, d: Float64Array, cosine: number, solidAngle: number) => void;

/**
 * Measures the spot around `candidate`.
 * @param image the panorama
 * @param candidate a sample of the coarse scan
 * @param stride the scan's stride: the true peak is within that many pixels
 * @returns the spot as a sun, or null when it is not one
 */
export function measureSpot(image: HdrPixels, candidate: SunCandidate, stride: number): MeasuredSpot | null {
  const peakAt = refinePeak(image, candidate, stride);
  const peak = luminanceAt(image.rgb, peakAt);
  const centre = new Float64Array(3);
  directionOfUv(((peakAt % image.width) + 0.5) / image.width, (Math.floor(peakAt / image.width) + 0.5) / image.height, centre);
  const visit = (fn: PixelVisitor) => visitWindow(image, peakAt, centre, fn);
  const sky = ringMean(image.rgb, visit);
  const skyLuminance = LUMA[0] * sky[0] + LUMA[1] * sky[1] + LUMA[2] * sky[2];
  const peakExcess = peak - skyLuminance;
  if (peakExcess <= 0 || peak < LOCAL_CONTRAST * skyLuminance) return null;

  const irradiance = [0, 0, 0];
  const sum = [0, 0, 0];
  let halfMaximum = 0;
  const cosCore = Math.cos(CORE_DEG * DEG);
  visit((i, d, cosine, solidAngle) => {
    if (cosine < cosCore) return;
    const excess = luminanceAt(image.rgb, i) - skyLuminance;
    if (excess < EDGE * peakExcess) return;
    for (let c = 0; c < 3; c++) irradiance[c]! += Math.max(0, image.rgb[i * 3 + c]! - sky[c]!) * solidAngle;
    for (let c = 0; c < 3; c++) sum[c]! += d[c]! * excess * solidAngle;
    if (excess >= 0.5 * peakExcess) halfMaximum += solidAngle;
  });
  const pixelAngle = (2 * Math.PI) / image.width;
  const maxRadius = Math.max(MAX_RADIUS_DEG * DEG, 2.5 * pixelAngle);
  if (halfMaximum > Math.PI * maxRadius * maxRadius) return null;
  return { sun: describe(sum, irradiance, peakExcess), peak };
}

/** The brightest full-resolution pixel within `stride` of the candidate, above the horizon. */
function refinePeak(image: HdrPixels, candidate: SunCandidate, stride: number): number {
  const { width, rgb } = image;
  const rows = skyRows(image.height);
  let best = candidate.y * width + candidate.x;
  let bestL = luminanceAt(rgb, best);
  for (let y = Math.max(0, candidate.y - stride); y <= Math.min(rows - 1, candidate.y + stride); y++) {
    for (let dx = -stride; dx <= stride; dx++) {
      const i = y * width + ((((candidate.x + dx) % width) + width) % width);
      const l = luminanceAt(rgb, i);
      if (l > bestL) {
        bestL = l;
        best = i;
      }
    }
  }
  return best;
}

/**
 * Calls `fn` for every pixel above the horizon within WINDOW_DEG of `centre` (pixel index
 * `at`), with its direction, its cosine to the centre and its solid angle. Columns wrap.
 */
function visitWindow(image: HdrPixels, at: number, centre: Float64Array, fn: PixelVisitor): void {
  const { width, height } = image;
  const cx = at % width;
  const cy = Math.floor(at / width);
  const rowAngle = 180 / height;
  const reach = Math.ceil(WINDOW_DEG / rowAngle) + 1;
  const cosWindow = Math.cos(WINDOW_DEG * DEG);
  const d = new Float64Array(3);
  const cellAngle = ((2 * Math.PI) / width) * (Math.PI / height);
  for (let y = Math.max(0, cy - reach); y <= Math.min(skyRows(height) - 1, cy + reach); y++) {
    const v = (y + 0.5) / height;
    const cosElevation = Math.cos(elevationOfV(v));
    // A row spans fewer degrees of the sky near the zenith: read wider there (the whole row at the pole).
    const across = Math.min(Math.floor(width / 2), Math.ceil(reach / Math.max(cosElevation, 1e-3)));
    const solidAngle = cellAngle * cosElevation;
    for (let dx = -across; dx <= across; dx++) {
      const x = (((cx + dx) % width) + width) % width;
      directionOfUv((x + 0.5) / width, v, d);
      const cosine = d[0]! * centre[0]! + d[1]! * centre[1]! + d[2]! * centre[2]!;
      if (cosine >= cosWindow) fn(y * width + x, d, cosine, solidAngle);
    }
  }
}

/** Mean RGB of the ring between CORE_DEG and WINDOW_DEG: the sky the sun is seen against. */
function ringMean(rgb: Float32Array, visit: (fn: PixelVisitor) => void): [number, number, number] {
  const cosCore = Math.cos(CORE_DEG * DEG);
  const sum = [0, 0, 0];
  let weight = 0;
  visit((i, _d, cosine, solidAngle) => {
    if (cosine >= cosCore) return;
    for (let c = 0; c < 3; c++) sum[c]! += rgb[i * 3 + c]! * solidAngle;
    weight += solidAngle;
  });
  return weight > 0 ? [sum[0]! / weight, sum[1]! / weight, sum[2]! / weight] : [0, 0, 0];
}

/** The sun of a measured spot: direction from the weighted sum, colour and strength from the irradiance. */
function describe(sum: number[], irradiance: number[], peakExcess: number): DetectedSun {
  const length = Math.hypot(sum[0]!, sum[1]!, sum[2]!);
  const direction: [number, number, number] = [sum[0]! / length, sum[1]! / length, sum[2]! / length];
  const intensity = Math.max(irradiance[0]!, irradiance[1]!, irradiance[2]!);
  const illuminance = LUMA[0] * irradiance[0]! + LUMA[1] * irradiance[1]! + LUMA[2] * irradiance[2]!;
  return {
    direction,
    azimuth: azimuthOfU(uOfDirection(direction[0], direction[2])),
    elevation: elevationOfV(vOfDirection(direction[1])),
    color: [irradiance[0]! / intensity, irradiance[1]! / intensity, irradiance[2]! / intensity],
    intensity,
    illuminance,
    solidAngle: illuminance / peakExcess,
  };
}
