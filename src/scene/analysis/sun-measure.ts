/**
 * Measures one bright spot in a window of 4 degrees around it: the sky
 * behind it (from the ring beyond 2.5 degrees), then what the spot adds to that sky inside
 * 2.5 degrees (wider where pixels are coarser than a third of a degree): its irradiance, colour, size, and its direction as the
 * excess-weighted mean of its pixels' directions (sub-pixel, and seamless across u = 0).
 * A spot is rejected when it is not compact (a lit cloud: too large, or spilling into the
 * ring) or not above its surroundings; whether it is bright enough to be the sun is
 * detect-sun.ts's call.
 */
import { azimuthOfU, directionOfUv, elevationOfV, uOfDirection, vOfDirection } from "../../api/panorama/panorama-directions.ts";
import type { DetectedSun } from "./detect-sun.ts";
import { clippedDisk } from "./clipped-disk.ts";
import type { HdrPixels } from "./hdr-pixels.ts";
import { nthSmallest } from "./nth-smallest.ts";
import { LUMA, luminanceAt, skyRows, type SunCandidate } from "./sun-candidates.ts";

const DEG = Math.PI / 180;
/** Largest radius of the disk's half-maximum region (the sun is half a degree across), at least 2.5 pixels. */
const MAX_RADIUS_DEG = 1.5;
/** Radius inside which pixels may belong to the sun (the ring outside it is its sky), in largest radii: 2.5 degrees at 1K and above. */
const CORE = 5 / 3;
/** Radius of the window read around a spot, in largest radii: 4 degrees at 1K and above. */
const WINDOW = 8 / 3;
/** Pixels adding less than this fraction of the peak's excess are sky (glow, haze). */
const EDGE = 0.02;
/**
 * A clipped sun is a flat top: at least FLAT_TOP pixels, and FLAT_SHARE of those above half
 * its peak, with two or three channels at the image's largest value. An unclipped disk is
 * coloured (one channel leads), and the pixels of its peak differ, even where a row near
 * the zenith stretches it over many pixels that the 8-bit mantissa of RGBE makes equal; a
 * moon's few brightest pixels may share a value, not most of its disk.
 */
const FLAT_TOP = 3;
const FLAT_SHARE = 0.5;
/** A channel is clipped when it reaches this share of the clip level (the image's largest value). */
export const SATURATED = 0.999;

/** Whether pixel i has at least two channels at or above `level` (a white clipped pixel). */
export function atTop(rgb: Float32Array, i: number, level: number): boolean {
  const o = i * 3;
  return (rgb[o]! >= level ? 1 : 0) + (rgb[o + 1]! >= level ? 1 : 0) + (rgb[o + 2]! >= level ? 1 : 0) >= 2;
}

/** A measured spot: the sun it would be, its brightest pixel's luminance and the sky's around it. */
export interface MeasuredSpot {
  sun: DetectedSun;
  peak: number;
  /** Luminance of the sky the spot is seen against. */
  sky: number;
  /** Whether the spot's brightest pixels reach the value the image clips at (an 8-bit-derived sun). */
  clipped: boolean;
  /** Share of a clipped disk that shows (something dark in front of it hides the rest), else 1. */
  visible: number;
}

/** Solid angle of the core a spot's light is summed over, for a panorama `width` pixels wide. */
export function coreSolidAngle(width: number): number {
  const radius = CORE * Math.max(MAX_RADIUS_DEG * DEG, 2.5 * ((2 * Math.PI) / width));
  return Math.PI * radius * radius;
}

/**
 * The pixels of a window: index and cosine to the centre of each, and its row and column
 * in the tables its direction and solid angle are read from (a window of an 8K panorama
 * near the zenith holds a million pixels: a direction of its own for each would be 24 MB).
 */
interface Window {
  count: number;
  index: Int32Array;
  cosine: Float64Array;
  /** Row in the window (rowCos, rowSin, rowSolidAngle) and column (sinAzimuth, cosAzimuth) of each pixel. */
  row: Int32Array;
  column: Int32Array;
  rowCos: Float64Array;
  rowSin: Float64Array;
  rowSolidAngle: Float64Array;
  sinAzimuth: Float64Array;
  cosAzimuth: Float64Array;
}

/** Adds pixel k's direction of window w, times `excess` and `solidAngle`, to `sum` (directionOfUv's terms, so the same directions). */
function addDirection(w: Window, k: number, excess: number, solidAngle: number, sum: number[]): void {
  const row = w.row[k]!;
  const column = w.column[k]!;
  const c = w.rowCos[row]!;
  sum[0]! += w.sinAzimuth[column]! * c * excess * solidAngle;
  sum[1]! += w.rowSin[row]! * excess * solidAngle;
  sum[2]! += -w.cosAzimuth[column]! * c * excess * solidAngle;
}

/**
 * Measures the spot around `candidate`.
 * @param image the panorama
 * @param candidate a bright pixel of the scan (sun-candidates.ts), or where one of a panorama read every few pixels lies in the whole one
 * @param reach the true peak is within that many pixels of the candidate
 * @param clip the largest channel value the scan saw (a clipped sun reaches it)
 * @param withDisk whether the sun's `disk` lists its pixels: only the sun a detection
 *   returns needs them, measured again for it in the whole panorama (detect-sun.ts)
 * @returns the spot as a sun, or null when it is not one
 */
export function measureSpot(image: HdrPixels, candidate: SunCandidate, reach: number, clip: number, withDisk = false): MeasuredSpot | null {
  const peakAt = refinePeak(image, candidate, reach);
  const peak = luminanceAt(image.rgb, peakAt);
  const maxRadius = Math.max(MAX_RADIUS_DEG * DEG, 2.5 * ((2 * Math.PI) / image.width));
  const w = readWindow(image, peakAt, WINDOW * maxRadius);
  const cosCore = Math.cos(CORE * maxRadius);
  const sky = skyBehind(image.rgb, w, cosCore);
  const skyLuminance = LUMA[0] * sky[0] + LUMA[1] * sky[1] + LUMA[2] * sky[2];
  const peakExcess = peak - skyLuminance;
  if (peakExcess <= 0) return null;

  if (!compact(image.rgb, w, cosCore, skyLuminance, peakExcess, Math.PI * maxRadius * maxRadius)) return null;

  const irradiance = [0, 0, 0];
  const sum = [0, 0, 0];
  const clippedAt: number[] = [];
  const pixels: number[] = [];
  const indices: number[] = [];
  let brightPixels = 0;
  const top = Math.max(clip, windowMax(image.rgb, w));
  for (let k = 0; k < w.count; k++) {
    if (w.cosine[k]! < cosCore) continue;
    const i = w.index[k]!;
    const excess = luminanceAt(image.rgb, i) - skyLuminance;
    if (excess < EDGE * peakExcess) continue;
    const solidAngle = w.rowSolidAngle[w.row[k]!]!;
    if (atTop(image.rgb, i, SATURATED * top)) clippedAt.push(i);
    for (let c = 0; c < 3; c++) {
      const added = Math.max(0, image.rgb[i * 3 + c]! - sky[c]!);
      irradiance[c]! += added * solidAngle;
      if (withDisk) pixels.push(added);
    }
    if (withDisk) {
      pixels.push(solidAngle);
      indices.push(i);
    }
    addDirection(w, k, excess, solidAngle, sum);
    if (excess >= 0.5 * peakExcess) brightPixels++;
  }
  const clipped = clippedAt.length >= Math.max(FLAT_TOP, FLAT_SHARE * brightPixels);
  const sun: DetectedSun = {
    ...describe(sum, irradiance, peakExcess),
    disk: { sky, pixels, at: { width: image.width, height: image.height, indices } },
  };
  if (!clipped) return { sun, peak, sky: skyLuminance, clipped, visible: 1 };
  // A clipped disk is placed by its clipped pixels alone (clipped-disk.ts): the excess-weighted
  // mean leans towards the unclipped glow on its sky side, away from the terrain below a low sun.
  const disk = clippedDisk(image, clippedAt);
  return { sun: { ...sun, ...towards(disk.direction) }, peak, sky: skyLuminance, clipped, visible: disk.visible };
}

/**
 * Whether a spot is compact: its solid angle above half the peak's excess is at most
 * `largest` inside the core, and a quarter of that in the ring outside it (where a sun has
 * none). Read before the spot is measured: a lit cloud near the zenith fills a window of
 * half a million pixels of an 8K panorama, each of which the measure would keep.
 */
function compact(rgb: Float32Array, w: Window, cosCore: number, skyLuminance: number, peakExcess: number, largest: number): boolean {
  let halfMaximum = 0;
  let spill = 0;
  for (let k = 0; k < w.count; k++) {
    if (luminanceAt(rgb, w.index[k]!) - skyLuminance < 0.5 * peakExcess) continue;
    const solidAngle = w.rowSolidAngle[w.row[k]!]!;
    if (w.cosine[k]! < cosCore) {
      if ((spill += solidAngle) > 0.25 * largest) return false;
    } else if ((halfMaximum += solidAngle) > largest) return false;
  }
  return true;
}

/** The largest channel value of a window's pixels. */
function windowMax(rgb: Float32Array, w: Window): number {
  let top = 0;
  for (let k = 0; k < w.count; k++) {
    const o = w.index[k]! * 3;
    top = Math.max(top, rgb[o]!, rgb[o + 1]!, rgb[o + 2]!);
  }
  return top;
}

/** The brightest pixel within `reach` of the candidate, above the horizon. */
function refinePeak(image: HdrPixels, candidate: SunCandidate, reach: number): number {
  const { width, rgb } = image;
  const rows = skyRows(image.height);
  let best = candidate.y * width + candidate.x;
  let bestL = luminanceAt(rgb, best);
  for (let y = Math.max(0, candidate.y - reach); y <= Math.min(rows - 1, candidate.y + reach); y++) {
    for (let dx = -reach; dx <= reach; dx++) {
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

/** Every pixel above the horizon within `radius` (radians) of pixel `at`. Columns wrap. */
function readWindow(image: HdrPixels, at: number, radius: number): Window {
  const { width, height } = image;
  const cx = at % width;
  const cy = Math.floor(at / width);
  const centre = new Float64Array(3);
  directionOfUv((cx + 0.5) / width, (cy + 0.5) / height, centre);
  const reach = Math.ceil(radius / (Math.PI / height)) + 1;
  const cosWindow = Math.cos(radius);
  const cellAngle = ((2 * Math.PI) / width) * (Math.PI / height);
  const y0 = Math.max(0, cy - reach);
  const y1 = Math.min(skyRows(height) - 1, cy + reach);
  // A row spans fewer degrees of the sky near the zenith: read wider there (the whole row at the pole).
  const across = (y: number) =>
    Math.min(Math.floor(width / 2), Math.ceil(reach / Math.max(Math.cos(elevationOfV((y + 0.5) / height)), 1e-3)));
  let capacity = 0;
  let widest = 0;
  for (let y = y0; y <= y1; y++) {
    capacity += 2 * across(y) + 1;
    widest = Math.max(widest, across(y));
  }
  const rows = y1 - y0 + 1;
  const w: Window = {
    count: 0,
    index: new Int32Array(capacity),
    cosine: new Float64Array(capacity),
    row: new Int32Array(capacity),
    column: new Int32Array(capacity),
    rowCos: new Float64Array(rows),
    rowSin: new Float64Array(rows),
    rowSolidAngle: new Float64Array(rows),
    sinAzimuth: new Float64Array(2 * widest + 1),
    cosAzimuth: new Float64Array(2 * widest + 1),
  };
  // Each column's azimuth sine and cosine once, each row's elevation's: a window of an 8K panorama holds a hundred
  // thousand pixels and more, and their trigonometry would take most of a detection's time.
  for (let dx = -widest; dx <= widest; dx++) {
    const azimuth = azimuthOfU((((((cx + dx) % width) + width) % width) + 0.5) / width);
    w.sinAzimuth[dx + widest] = Math.sin(azimuth);
    w.cosAzimuth[dx + widest] = Math.cos(azimuth);
  }
  for (let y = y0; y <= y1; y++) {
    const elevation = elevationOfV((y + 0.5) / height);
    const c = Math.cos(elevation);
    const sin = Math.sin(elevation);
    const row = y - y0;
    w.rowCos[row] = c;
    w.rowSin[row] = sin;
    w.rowSolidAngle[row] = cellAngle * c;
    const a = across(y);
    for (let dx = -a; dx <= a; dx++) {
      const column = dx + widest;
      const cosine = w.sinAzimuth[column]! * c * centre[0]! + sin * centre[1]! + -w.cosAzimuth[column]! * c * centre[2]!;
      if (cosine < cosWindow) continue;
      const k = w.count++;
      w.index[k] = y * width + ((((cx + dx) % width) + width) % width);
      w.cosine[k] = cosine;
      w.row[k] = row;
      w.column[k] = column;
    }
  }
  return w;
}

/**
 * The sky the spot is seen against: the mean RGB of the dimmer half of the ring outside the
 * core (a cloud or a bright slope across part of the ring does not count).
 */
function skyBehind(rgb: Float32Array, w: Window, cosCore: number): [number, number, number] {
  // The ring's luminances in window order, read twice: for their median, then for the sum.
  const luminance = new Float64Array(w.count);
  let n = 0;
  for (let k = 0; k < w.count; k++) if (w.cosine[k]! < cosCore) luminance[n++] = luminanceAt(rgb, w.index[k]!);
  if (!n) return [0, 0, 0];
  const median = nthSmallest(luminance.slice(0, n), n >> 1);
  const sum = [0, 0, 0];
  let weight = 0;
  let j = 0;
  for (let k = 0; k < w.count; k++) {
    if (!(w.cosine[k]! < cosCore) || luminance[j++]! > median) continue;
    const i = w.index[k]!;
    const solidAngle = w.rowSolidAngle[w.row[k]!]!;
    for (let c = 0; c < 3; c++) sum[c]! += rgb[i * 3 + c]! * solidAngle;
    weight += solidAngle;
  }
  return [sum[0]! / weight, sum[1]! / weight, sum[2]! / weight];
}

/** A direction with its azimuth and elevation. */
function towards(direction: [number, number, number]): Pick<DetectedSun, "direction" | "azimuth" | "elevation"> {
  return { direction, azimuth: azimuthOfU(uOfDirection(direction[0], direction[2])), elevation: elevationOfV(vOfDirection(direction[1])) };
}

/** The sun of a measured spot: direction from the weighted sum, colour and strength from the irradiance. */
function describe(sum: number[], irradiance: number[], peakExcess: number): Omit<DetectedSun, "disk"> {
  const length = Math.hypot(sum[0]!, sum[1]!, sum[2]!);
  const intensity = Math.max(irradiance[0]!, irradiance[1]!, irradiance[2]!);
  const illuminance = LUMA[0] * irradiance[0]! + LUMA[1] * irradiance[1]! + LUMA[2] * irradiance[2]!;
  return {
    ...towards([sum[0]! / length, sum[1]! / length, sum[2]! / length]),
    color: [irradiance[0]! / intensity, irradiance[1]! / intensity, irradiance[2]! / intensity],
    intensity,
    illuminance,
    solidAngle: illuminance / peakExcess,
    source: "measured",
    confidence: 1,
    turbidity: null,
  };
}
