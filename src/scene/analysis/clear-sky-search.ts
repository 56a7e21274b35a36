/**
 * How well a sun placed in a saturated blob explains the sky, against suns elsewhere in the
 * clipped sky. In an HDRI clipped at 1.0 the sun's blob often merges with lit clouds or
 * the horizon's glow, and a blob of cloud alone can pass every test of the sun's (its
 * unclipped sky falls off around it, a clear sky fits): a sun placed there lights the
 * scene from the wrong side. The clear-sky model (Perez, as sky-fit.ts fits it) says
 * where the sky's own sun is, as outdoor lighting estimation searches it (Lalonde &
 * Matthews, 3DV 2014): the unclipped sky fits a sun near the real one far better than a
 * sun on a cloud 8 to 30 degrees away. The fit's best place is off by a few degrees to
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
 */
import { directionOfUv } from "../../api/panorama/panorama-directions.ts";
import type { HdrPixels } from "./hdr-pixels.ts";
import { perez, perezCoefficients } from "./preetham.ts";
import { CLIP_SHARE, skyGrid, trimmedCost } from "./sky-fit.ts";
import { luminanceAt } from "./sun-candidates.ts";
import { atTop, SATURATED } from "./sun-measure.ts";

const DEG = Math.PI / 180;
/** Spacing (degrees) of the samples and of the lattice of suns. */
const GRID_DEG = 4;
const MIN_ELEVATION = 2 * DEG;
const MIN_FROM_SUN = 4 * DEG;
const TURBIDITY = 2;

/** The clear-sky cost of suns in one panorama: `at` any direction, and the least over the lattice. */
export interface ClearSkyCosts {
  /** Mean squared log residual of the unclipped sky for a sun in `direction`. */
  at(direction: ArrayLike<number>): number;
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
  const samples = unclippedSky(image, clip);
  const coefficients = perezCoefficients(TURBIDITY);
  const n = samples.logL.length;
  const residuals = new Float64Array(n);
  const at = (sun: ArrayLike<number>) => {
    let m = 0;
    for (let i = 0; i < n; i++) {
      const cos = samples.direction[i * 3]! * sun[0]! + samples.direction[i * 3 + 1]! * sun[1]! + samples.direction[i * 3 + 2]! * sun[2]!;
      const gamma = Math.acos(Math.min(1, Math.max(-1, cos)));
      if (gamma >= MIN_FROM_SUN) residuals[m++] = samples.logL[i]! - Math.log(perez(coefficients, samples.direction[i * 3 + 1]!, gamma));
    }
    return m ? trimmedCost(residuals.subarray(0, m)).cost : Infinity;
  };
  let least = Infinity;
  let best = -1;
  for (const [pixel, direction] of saturatedLattice(image, clip)) {
    const cost = at(direction);
    if (cost < least) [least, best] = [cost, pixel];
  }
  return { at, least, best };
}

/** Unclipped sky samples: direction (flattened in threes) and log luminance. */
function unclippedSky(image: HdrPixels, clip: number): { direction: number[]; logL: number[] } {
  const { width, height, rgb } = image;
  const out = { direction: [] as number[], logL: [] as number[] };
  const limit = CLIP_SHARE * clip;
  const d = new Float64Array(3);
  for (const [x, y] of skyGrid(width, height, GRID_DEG, MIN_ELEVATION)) {
    const o = (y * width + x) * 3;
    const l = luminanceAt(rgb, y * width + x);
    if (rgb[o]! >= limit || rgb[o + 1]! >= limit || rgb[o + 2]! >= limit || !(l > 0)) continue;
    directionOfUv((x + 0.5) / width, (y + 0.5) / height, d);
    out.direction.push(d[0]!, d[1]!, d[2]!);
    out.logL.push(Math.log(l));
  }
  return out;
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
