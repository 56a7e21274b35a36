/**
 * How well a sun placed in a saturated blob explains the sky, against suns elsewhere in the
 * clipped sky. In an HDRI clipped at 1.0 the sun's blob often merges with lit clouds or
 * the horizon's glow, and a blob of cloud alone can pass every test of the sun's (a clear
 * sky fits it): a sun placed there lights the scene from the wrong side. The clear-sky
 * model (Perez, as sky-fit.ts fits it) says where the sky's own sun is, as outdoor
 * lighting estimation searches it (Lalonde & Matthews, 3DV 2014): the unclipped sky fits a
 * sun near the real one far better than a sun on a cloud 8 to 30 degrees away. The fit's best place is off by a few degrees to
 * fifteen (the Perez shape is not the sky's own), too far to place the sun, so it only
 * refuses: a blob's sun whose sky fits clearly worse than the best of a lattice of suns
 * across the clipped sky is a cloud.
 *
 * The samples: unclipped sky pixels (no channel at the clip level) on a grid about 4
 * degrees apart, 2 to 90 degrees up; the cost of a sun is the trimmed mean squared log
 * residual (sky-fit.ts) of those more than 4 degrees from it, at turbidity 2 (a clear day's;
 * below it Preetham's zenith darkens to nothing, and which sun fits best swings with it). The
 * lattice: every 4 degrees where two channels clip (a sun clipped at 1.0 lies in such
 * sky).
 *
 * It also says where to look for the sun in a clipped sky (`bestClippedSpot`). An HDRI made
 * from an 8-bit picture holds its sun at one value, the clip level, and often lit clouds,
 * snow, windows or a glow at the same value: the coarse scan's brightest spots tie there,
 * and which of them it keeps (the first rows it reads: cloud tops near the zenith) says
 * nothing of the sun. The sky's own gradation does: each saturated spot (4-connected pixels
 * above the horizon with two channels at the clip level) is costed with the sun at its
 * centre, and the best one is where to look; near enough to say which spot holds the sun,
 * not where in a glow.
 */
import { azimuthOfU, directionOfUv, elevationOfV } from "../../api/panorama/panorama-directions.ts";
import type { HdrPixels } from "./hdr-pixels.ts";
import { perezCircumsolar, perezCoefficients, perezGradation } from "./preetham.ts";
import { MIN_ELEVATION, MIN_FROM_SUN, trimmedCost } from "./sky-fit.ts";
import { skyGrid, skySamples } from "./sky-samples.ts";
import { fourNeighbours, skyRows } from "./sun-candidates.ts";
import { SUN_SOLID_ANGLE } from "./saturated-blob.ts";
import { atTop, SATURATED } from "./sun-measure.ts";

/** Spacing (degrees) of the samples and of the lattice of suns. */
const GRID_DEG = 4;
/** Turbidity of the clear sky each sun is scored with: a clear day's air (2 on Preetham's scale). */
const TURBIDITY = 2;
/**
 * Spots ranked at most, the largest: a clipped sky seen through foliage, or flecks of lit
 * cloud, holds hundreds.
 */
const RANKED = 64;

/**
 * Least ratio of two suns' costs (`at`) that says the clear sky fits the one clearly better
 * than the other. On the local renderer's skies clipped at 1.0, a true sun costs 1.6 to 76
 * times less than a glow elsewhere in the sky, and a fleck of cloud 0.4 to 1.2 times.
 */
export const CLEARLY_BETTER = 1.5;

/** The clear-sky cost of suns in one panorama: `at` any direction, and the least over the lattice. */
export interface ClearSkyCosts {
  /** Mean squared log residual of the unclipped sky for a sun in `direction`. */
  at: (direction: ArrayLike<number>) => number;
  /** The least `at` over the lattice of saturated directions (Infinity when none is saturated). */
  least: number;
  /** The lattice's pixel of least cost (its index, row * width + column), or -1 when none is saturated. */
  best: number;
}

/**
 * The clear-sky costs of suns in `image`.
 * @param image the panorama
 * @param clip the image's largest channel value
 */
export function clearSkyCosts(image: HdrPixels, clip: number): ClearSkyCosts {
  const samples = skySamples(image, clip, GRID_DEG, MIN_ELEVATION);
  const coefficients = perezCoefficients(TURBIDITY);
  const n = samples.count;
  const residuals = new Float64Array(n);
  // The turbidity is fixed: each sample's gradation is the same for every sun.
  const gradation = Float64Array.from({ length: n }, (_, i) => perezGradation(coefficients, samples.direction[i * 3 + 1]!));
  const at = (sun: ArrayLike<number>) => {
    let m = 0;
    for (let i = 0; i < n; i++) {
      if (samples.clipped[i]) continue; // unclipped samples only
      const cos = samples.direction[i * 3]! * sun[0]! + samples.direction[i * 3 + 1]! * sun[1]! + samples.direction[i * 3 + 2]! * sun[2]!;
      const gamma = Math.acos(Math.min(1, Math.max(-1, cos)));
      if (gamma >= MIN_FROM_SUN)
        residuals[m++] = samples.logL[i]! - Math.log(gradation[i]! * perezCircumsolar(coefficients, gamma, Math.cos(gamma)));
    }
    return m ? trimmedCost(residuals.subarray(0, m)).cost : Infinity;
  };
  // The lattice is searched when first asked (a clipped sky's spots are ranked by `at` alone: `bestClippedSpot`).
  let lattice: { least: number; best: number } | undefined;
  const search = () => {
    let least = Infinity;
    let best = -1;
    for (const [pixel, direction] of saturatedLattice(image, clip)) {
      const cost = at(direction);
      if (cost < least) [least, best] = [cost, pixel];
    }
    return { least, best };
  };
  return {
    at,
    get least() {
      return (lattice ??= search()).least;
    },
    get best() {
      return (lattice ??= search()).best;
    },
  };
}

/** The grid's pixels where two channels clip: index and direction. */
function saturatedLattice(image: HdrPixels, clip: number): [number, Float64Array][] {
  const { width, height, rgb } = image;
  const out: [number, Float64Array][] = [];
  for (const [x, y] of skyGrid(width, height, GRID_DEG, MIN_ELEVATION)) {
    if (!atTop(rgb, y * width + x, SATURATED * clip)) continue;
    const d = new Float64Array(3);
    directionOfUv((x + 0.5) / width, (y + 0.5) / height, d);
    out.push([y * width + x, d]);
  }
  return out;
}

/** A saturated spot: one of its pixels (its index in the panorama), its solid angle and centre. */
export interface ClippedSpot {
  pixel: number;
  solidAngle: number;
  direction: number[];
}

/**
 * The saturated spot of `image`'s sky where the clear sky places the sun best, or null when
 * no spot is as large as the sun's disk.
 * @param image the panorama (detect-sun.ts searches it at most 1K wide)
 * @param clip the image's largest channel value
 * @param cost the clear sky's cost of a sun in a direction (`ClearSkyCosts.at`)
 */
export function bestClippedSpot(image: HdrPixels, clip: number, cost: (direction: ArrayLike<number>) => number): ClippedSpot | null {
  const spots = saturatedSpots(image, clip)
    .filter((spot) => spot.solidAngle >= SUN_SOLID_ANGLE)
    .sort((a, b) => b.solidAngle - a.solidAngle)
    .slice(0, RANKED);
  let best: ClippedSpot | null = null;
  let least = Infinity;
  for (const spot of spots) {
    const c = cost(spot.direction);
    if (c < least) [best, least] = [spot, c];
  }
  return best;
}

/** Every saturated spot: its first pixel, solid angle and centre (solid-angle weighted mean direction). */
function saturatedSpots(image: HdrPixels, clip: number): ClippedSpot[] {
  const { width, height, rgb } = image;
  const rows = skyRows(height);
  const level = SATURATED * clip;
  const cell = ((2 * Math.PI) / width) * (Math.PI / height);
  // directionOfUv's terms per row and column: a clipped sky holds a hundred thousand pixels and more.
  const rowCos = Float64Array.from({ length: rows }, (_, y) => Math.cos(elevationOfV((y + 0.5) / height)));
  const rowSin = Float64Array.from({ length: rows }, (_, y) => Math.sin(elevationOfV((y + 0.5) / height)));
  const columnSin = Float64Array.from({ length: width }, (_, x) => Math.sin(azimuthOfU((x + 0.5) / width)));
  const columnCos = Float64Array.from({ length: width }, (_, x) => Math.cos(azimuthOfU((x + 0.5) / width)));
  const done = new Uint8Array(width * rows);
  const stack = new Int32Array(width * rows);
  const out: ClippedSpot[] = [];
  for (let seed = 0; seed < width * rows; seed++) {
    if (done[seed] || !atTop(rgb, seed, level)) continue;
    done[seed] = 1;
    stack[0] = seed;
    let top = 1;
    let sx = 0;
    let sy = 0;
    let sz = 0;
    let solidAngle = 0;
    while (top > 0) {
      const i = stack[--top]!;
      const x = i % width;
      const y = (i - x) / width;
      const w = cell * rowCos[y]!;
      solidAngle += w;
      sx += columnSin[x]! * rowCos[y]! * w;
      sy += rowSin[y]! * w;
      sz -= columnCos[x]! * rowCos[y]! * w;
      for (const j of fourNeighbours(i, width, rows)) {
        if (j < 0 || done[j] || !atTop(rgb, j, level)) continue;
        done[j] = 1;
        stack[top++] = j;
      }
    }
    const norm = Math.hypot(sx, sy, sz);
    out.push({ pixel: seed, solidAngle, direction: norm > 0 ? [sx / norm, sy / norm, sz / norm] : [0, 1, 0] });
  }
  return out;
}
