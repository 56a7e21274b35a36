/**
 * Where the sun stands in a saturated blob: in an HDRI made from an 8-bit picture the sky
 * around the sun clips too, and no compact disk is left, only a blob of pixels at the
 * image's largest value. Its edge is a line of equal radiance, not a circle round the sun:
 * the sky brightens towards the horizon as well as towards the sun. So the sun is placed
 * from the unclipped sky around the blob, which holds how the radiance falls off:
 * - its azimuth is the blob's mean azimuth: a sky is mirror-symmetric about the vertical
 *   plane through the sun (every clear-sky model depends on the view's elevation and its
 *   angle to the sun only);
 * - its elevation is the one that best explains the sky's radiance around the blob as a
 *   product of a function of the angle to the sun (the aureole, any shape: one value per
 *   degree) and a smooth function of the view's elevation (the brightening towards the
 *   horizon: quadratic in log radiance). Single scattering in a thin atmosphere has this
 *   form. Tried every half degree across the blob, then every tenth around the best.
 * A blob whose sky does not fall off away from its sun (snow, a lit cloud bank) is not a
 * sun; one too large to place the sun within a degree or two is left alone.
 */
import { directionOfUv, elevationOfV } from "../../api/panorama/panorama-directions.ts";
import type { HdrPixels } from "./hdr-pixels.ts";
import { perezCoefficients } from "./preetham.ts";
import { luminanceAt, skyRows } from "./sun-candidates.ts";
import { atTop } from "./sun-measure.ts";

const DEG = Math.PI / 180;
/** Largest saturated blob placed (radius of a disk of its solid angle). */
const MAX_RADIUS = 10 * DEG;
/** Least solid angle of a clipped sun: the sun's own disk, half a degree across. */
const SUN_SOLID_ANGLE = Math.PI * (0.265 * DEG) ** 2;
/**
 * Least share of a clear sky's fall-off the sky around a blob must show: Preetham's sky at
 * turbidity 2 to 6 is 1.8 to 2 times brighter 5 degrees from the sun than 30 degrees from
 * it at the same elevation; around snow or a lit cloud the sky does not brighten.
 */
const FALL_OFF_SHARE = 0.5;
const FALL_OFF_TURBIDITY = 2;
/** Radius around the blob's centre whose sky is fitted, and the aureole's bins in it. */
const WINDOW = 30 * DEG;
const BINS = 30;
/** Spacing of the fitted samples (one aureole bin), and of the elevations tried. */
const SPACING = WINDOW / BINS;
const GRID = 0.5 * DEG;
/** Samples below this elevation are left out (the horizon's haze and terrain). */
const MIN_ELEVATION = 1 * DEG;
/** A pixel is saturated when two of its channels reach this share of the clip level. */
const SATURATED = 0.999;
/** Residuals beyond this many times their median are terrain or cloud, left out of the refit. */
const OUTLIER = 3;

/** A blob of saturated pixels and the sun placed in it. */
export interface SaturatedBlob {
  /** Unit vector towards the sun. */
  direction: [number, number, number];
  /** The blob's pixel indices. */
  pixels: number[];
  /** Solid angle of the blob (steradians). */
  solidAngle: number;
}

/**
 * The saturated blob holding pixel `seed`, and the sun placed in it.
 * @param image the panorama
 * @param seed index of a saturated pixel above the horizon
 * @param clip the image's largest channel value
 * @returns the blob with the sun's direction, or null when it is too large or its sky does not fall off around it
 */
export function placeInBlob(image: HdrPixels, seed: number, clip: number): SaturatedBlob | null {
  const blob = floodBlob(image, seed, clip);
  if (!blob || blob.solidAngle < SUN_SOLID_ANGLE) return null;
  const { width, height } = image;
  const u = meanU(blob.pixels, width, height);
  const rows = blob.pixels.map((i) => Math.floor(i / width));
  const top = elevationOfV(Math.min(...rows) / height);
  const bottom = Math.max(MIN_ELEVATION / 2, elevationOfV((Math.max(...rows) + 1) / height));
  const samples = skyAround(image, u, (top + bottom) / 2, clip);
  let best = { elevation: bottom, ...profileFit(samples, u, bottom) };
  for (let e = bottom; e <= top; e += GRID) {
    const fit = profileFit(samples, u, e);
    if (fit.cost < best.cost) best = { elevation: e, ...fit };
  }
  for (let e = best.elevation - GRID; e <= best.elevation + GRID; e += GRID / 5) {
    if (e < bottom || e > top) continue;
    const fit = profileFit(samples, u, e);
    if (fit.cost < best.cost) best = { elevation: e, ...fit };
  }
  if (!best.fallsOff) return null;
  const direction: [number, number, number] = [0, 0, 0];
  directionOfUv(u, 0.5 - best.elevation / Math.PI, direction);
  return { direction, pixels: blob.pixels, solidAngle: blob.solidAngle };
}

/** The 4-connected saturated pixels above the horizon holding `seed` (columns wrap), or null past MAX_RADIUS. */
function floodBlob(image: HdrPixels, seed: number, clip: number): { pixels: number[]; solidAngle: number } | null {
  const { width, height, rgb } = image;
  const rows = skyRows(height);
  const level = SATURATED * clip;
  if (!atTop(rgb, seed, level)) return null;
  const cell = ((2 * Math.PI) / width) * (Math.PI / height);
  const most = Math.PI * MAX_RADIUS * MAX_RADIUS;
  const seen = new Set<number>([seed]);
  const stack = [seed];
  const pixels: number[] = [];
  let solidAngle = 0;
  while (stack.length) {
    const i = stack.pop()!;
    pixels.push(i);
    const x = i % width;
    const y = Math.floor(i / width);
    solidAngle += cell * Math.cos(elevationOfV((y + 0.5) / height));
    if (solidAngle > most) return null;
    const next = [y * width + ((x + 1) % width), y * width + ((x + width - 1) % width), y > 0 ? i - width : -1, y < rows - 1 ? i + width : -1];
    for (const j of next) {
      if (j < 0 || seen.has(j) || !atTop(rgb, j, level)) continue;
      seen.add(j);
      stack.push(j);
    }
  }
  return { pixels, solidAngle };
}

/** The blob's mean u: the circular mean of its pixels' azimuths, weighted by their solid angle. */
function meanU(pixels: number[], width: number, height: number): number {
  let c = 0;
  let s = 0;
  for (const i of pixels) {
    const w = Math.cos(elevationOfV((Math.floor(i / width) + 0.5) / height));
    const a = (2 * Math.PI * ((i % width) + 0.5)) / width;
    c += w * Math.cos(a);
    s += w * Math.sin(a);
  }
  return (Math.atan2(s, c) / (2 * Math.PI) + 1) % 1;
}

/** Unclipped sky samples on a GRID around (u, elevation): direction, elevation, log luminance. */
interface Samples {
  direction: number[];
  elevation: number[];
  logL: number[];
}

function skyAround(image: HdrPixels, u: number, elevation: number, clip: number): Samples {
  const { width, height, rgb } = image;
  const out: Samples = { direction: [], elevation: [], logL: [] };
  const centre = new Float64Array(3);
  directionOfUv(u, 0.5 - elevation / Math.PI, centre);
  const cosWindow = Math.cos(WINDOW + MAX_RADIUS);
  const rowStep = Math.max(1, Math.round((SPACING / Math.PI) * height));
  const d = new Float64Array(3);
  for (let y = Math.floor(rowStep / 2); y < skyRows(height); y += rowStep) {
    const e = elevationOfV((y + 0.5) / height);
    if (e < MIN_ELEVATION || Math.abs(e - elevation) > WINDOW + MAX_RADIUS) continue;
    const colStep = Math.max(1, Math.round(((SPACING / (2 * Math.PI)) * width) / Math.max(Math.cos(e), 0.05)));
    for (let x = 0; x < width; x += colStep) {
      const i = y * width + x;
      directionOfUv((x + 0.5) / width, (y + 0.5) / height, d);
      if (d[0]! * centre[0]! + d[1]! * centre[1]! + d[2]! * centre[2]! < cosWindow) continue;
      const o = i * 3;
      if (Math.max(rgb[o]!, rgb[o + 1]!, rgb[o + 2]!) >= SATURATED * clip) continue;
      const l = luminanceAt(rgb, i);
      if (!(l > 0)) continue;
      out.direction.push(d[0]!, d[1]!, d[2]!);
      out.elevation.push(e);
      out.logL.push(Math.log(l));
    }
  }
  return out;
}

/**
 * Least squares of log luminance = aureole[bin of the angle to the sun] + a (e - e_sun) +
 * b (e - e_sun)^2 over the samples within WINDOW of a sun at (u, elevation), refitted once
 * without the outliers. Returns the mean squared residual of the kept samples, and whether
 * the fitted aureole falls off: its nearest bin brighter than its farthest.
 */
function profileFit(s: Samples, u: number, elevation: number): { cost: number; fallsOff: boolean } {
  const sun = new Float64Array(3);
  directionOfUv(u, 0.5 - elevation / Math.PI, sun);
  const bins: number[] = [];
  const de: number[] = [];
  const logL: number[] = [];
  const cosWindow = Math.cos(WINDOW);
  for (let k = 0; k < s.logL.length; k++) {
    const cos = s.direction[k * 3]! * sun[0]! + s.direction[k * 3 + 1]! * sun[1]! + s.direction[k * 3 + 2]! * sun[2]!;
    if (cos < cosWindow) continue;
    bins.push(Math.min(BINS - 1, Math.floor((Math.acos(Math.min(1, cos)) / WINDOW) * BINS)));
    de.push(s.elevation[k]! - elevation);
    logL.push(s.logL[k]!);
  }
  if (logL.length < 3 * BINS) return { cost: Infinity, fallsOff: false };
  let keep = logL.map(() => true);
  let fit = solveProfile(bins, de, logL, keep);
  const spread = fit.residuals.map(Math.abs).sort((a, b) => a - b)[fit.residuals.length >> 1]!;
  keep = fit.residuals.map((r) => Math.abs(r) <= OUTLIER * spread + 1e-6);
  fit = solveProfile(bins, de, logL, keep);
  let sum = 0;
  let n = 0;
  fit.residuals.forEach((r, k) => {
    if (!keep[k]) return;
    sum += r * r;
    n++;
  });
  const filled = fit.aureole.flatMap((v, b) => (fit.counts[b]! > 0 ? [b] : []));
  const near = filled[0]!;
  const far = filled[filled.length - 1]!;
  const angle = (b: number) => ((b + 0.5) / BINS) * WINDOW;
  const clear = Math.log(circumsolar(angle(near)) / circumsolar(angle(far)));
  return { cost: n ? sum / n : Infinity, fallsOff: far > near && fit.aureole[near]! - fit.aureole[far]! >= FALL_OFF_SHARE * clear };
}

/** The part of Preetham's sky (Perez) that depends on the angle to the sun, at FALL_OFF_TURBIDITY. */
function circumsolar(gamma: number): number {
  const [, , c, d, e] = perezCoefficients(FALL_OFF_TURBIDITY);
  return 1 + c * Math.exp(d * gamma) + e * Math.cos(gamma) ** 2;
}

/** The normal equations of the profile (BINS aureole values, two elevation terms), solved. */
function solveProfile(bins: number[], de: number[], logL: number[], keep: boolean[]): { aureole: number[]; counts: number[]; residuals: number[] } {
  const size = BINS + 2;
  const a = Array.from({ length: size }, () => new Float64Array(size + 1));
  const counts = new Array<number>(BINS).fill(0);
  for (let k = 0; k < logL.length; k++) {
    if (!keep[k]) continue;
    const terms: [number, number][] = [[bins[k]!, 1], [BINS, de[k]!], [BINS + 1, de[k]! * de[k]!]];
    counts[bins[k]!]!++;
    for (const [i, fi] of terms) {
      a[i]![size]! += fi * logL[k]!;
      for (const [j, fj] of terms) a[i]![j]! += fi * fj;
    }
  }
  // An empty bin is held at 0 (a tiny ridge keeps the system regular).
  for (let i = 0; i < size; i++) a[i]![i]! += 1e-9;
  const x = gaussSolve(a);
  const residuals = logL.map((l, k) => l - x[bins[k]!]! - x[BINS]! * de[k]! - x[BINS + 1]! * de[k]! * de[k]!);
  return { aureole: x.slice(0, BINS), counts, residuals };
}

/** Solves the augmented system in place by Gaussian elimination with partial pivoting. */
function gaussSolve(a: Float64Array[]): number[] {
  const n = a.length;
  for (let i = 0; i < n; i++) {
    let p = i;
    for (let k = i + 1; k < n; k++) if (Math.abs(a[k]![i]!) > Math.abs(a[p]![i]!)) p = k;
    [a[i], a[p]] = [a[p]!, a[i]!];
    const pivot = a[i]![i]!;
    for (let k = i + 1; k < n; k++) {
      const f = a[k]![i]! / pivot;
      if (f !== 0) for (let j = i; j <= n; j++) a[k]![j]! -= f * a[i]![j]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let i = n - 1; i >= 0; i--) {
    let sum = a[i]![n]!;
    for (let j = i + 1; j < n; j++) sum -= a[i]![j]! * x[j]!;
    x[i] = sum / a[i]![i]!;
  }
  return x;
}
