/**
 * The sun's energy from the sky around it, for a disk that is clipped or too dim (an HDRI
 * made from an 8-bit picture): the Preetham clear-sky model (preetham.ts) is fitted to the
 * panorama's own sky for the sun's direction, as outdoor lighting estimation does
 * (Lalonde & Matthews, 3DV 2014; Hold-Geoffroy et al., CVPR 2017), and the fitted scale
 * and the sun's elevation predict the sun's irradiance.
 *
 * The fit: sky pixels on a grid about 2 degrees apart, 2 degrees up (or a given elevation)
 * to 90, more than 4 degrees from the sun and not clipped; for each turbidity from 1.7 to
 * 12, the scale is the
 * median log ratio of pixel to model luminance, and the cost the mean squared log residual
 * of the 70% best-fitting samples (terrain standing above the horizon, clouds and the
 * glow of a low sun's haze are left out that way). The turbidity of least cost wins
 * (tried every 0.5, then every 0.1 around the best).
 *
 * Whether the sky is a clear one at all is its colour's to say, read apart and first (a grey
 * sky is not worth fitting): the tint of the whole sky (`skyTint`) and the blueness of the
 * aureole round the sun (`aureoleBlueness`).
 */
import type { HdrPixels } from "./hdr-pixels.ts";
import { perez, perezCircumsolar, perezCoefficients, perezGradation, sunIrradiance, zenithLuminance } from "./preetham.ts";
import { nthSmallest } from "./nth-smallest.ts";
import { type SkySamples, skySamples } from "./sky-samples.ts";

const DEG = Math.PI / 180;
/** Spacing (degrees) of the sky's samples: the model varies over tens of degrees. */
const GRID_DEG = 2;
/**
 * Lowest fitted sky: the last degrees above the horizon hold refraction, the haze layer and
 * the terrain's edge, which a clear-sky model of a flat world does not describe.
 */
export const MIN_ELEVATION = 2 * DEG;
/** Least angle from the sun of a fitted sample: nearer lie its disk's spill and the glare around it, not sky. */
export const MIN_FROM_SUN = 4 * DEG;
/**
 * Share of the residuals a trimmed cost keeps, those nearest the median: the rest are the
 * clouds, terrain, birds and lamps a clear sky does not explain.
 */
const KEEP = 0.7;
/** Least samples fitted. */
const MIN_SAMPLES = 40;
/** Turbidities tried: every 0.5 from 1.7 to 12, then every 0.1 around the best. */
const COARSE = Array.from({ length: 21 }, (_, i) => 1.7 + i * 0.5);
/** Turbidity of the sun's own path: aerosol-free (see `fitSky`). */
const PATH_TURBIDITY = 1;
/** Least elevation of the samples that say whether the sky is blue. */
const UPPER_SKY = 20 * DEG;
/** The aureole: samples this far from the sun, where a clear sky's Rayleigh blue shows through its glow. */
const AUREOLE = [10 * DEG, 40 * DEG] as const;
/** The horizon band: its samples say whether the sky along the horizon is red. */
const HORIZON_BAND = 10 * DEG;

/** A fitted clear sky. */
export interface SkyFit {
  turbidity: number;
  /** Panorama radiance units per kcd/m² of the model. */
  scale: number;
  /** Root mean square of the kept log residuals (0: a perfect clear sky). */
  residual: number;
  /** Samples fitted. */
  samples: number;
  /** The sun's irradiance the fit predicts, panorama units (linear RGB). */
  irradiance: [number, number, number];
}

/**
 * The colour of a panorama's sky, wherever its sun stands, which says whether it can be a
 * clear one: the Perez luminance alone fits an overcast sky about as well as a clear one;
 * its colour does not. Each is the median (B - R) / (B + R) of the sky's samples (`viewSky`'s,
 * the sun's few included) in a part of the sky.
 */
export interface SkyTint {
  /**
   * Of the samples 20 degrees up or more: about 0.5 for a clear day, 0.2 to 0.4 at sunset,
   * near 0 under grey cloud.
   */
  blueness: number;
  /**
   * Of the samples under 10 degrees up (null with none): red all round with a low sun in a
   * clear sky (its light, reddened along the sun's grazing path, lights the air near the
   * horizon), grey in fog or under overcast.
   */
  horizonBlueness: number | null;
}

/** Sky samples: cosine of the zenith angle, angle to the sun, log luminance, (B - R) / (B + R). */
interface Samples {
  cosTheta: number[];
  gamma: number[];
  logL: number[];
  blue: number[];
}

/** The sky's samples around a sun, which `fitSky` fits and `aureoleBlueness` reads. */
export interface SkyView {
  /** Unit vector towards the sun. */
  sun: readonly number[];
  samples: Samples;
}

/**
 * Log of the Perez distribution over the samples, into `out`: each sample's angle to the sun
 * and its cosine read once, as the fit evaluates it for thirty turbidities, and the
 * gradation computed once per row (the samples of a grid row share their elevation).
 */
function logPerezOf(s: Samples): (c: readonly number[], out: Float64Array) => void {
  const n = s.logL.length;
  const gamma = Float64Array.from(s.gamma);
  const cosGamma = Float64Array.from(s.gamma, Math.cos);
  // Each sample's row among the distinct elevations, which the grid yields row after row.
  const rowCos: number[] = [];
  const row = Int32Array.from(s.cosTheta, (cosTheta) => {
    if (rowCos[rowCos.length - 1] !== cosTheta) rowCos.push(cosTheta);
    return rowCos.length - 1;
  });
  const gradation = new Float64Array(rowCos.length);
  return (c, out) => {
    for (let j = 0; j < rowCos.length; j++) gradation[j] = perezGradation(c, rowCos[j]!);
    for (let i = 0; i < n; i++) out[i] = Math.log(gradation[row[i]!]! * perezCircumsolar(c, gamma[i]!, cosGamma[i]!));
  };
}

/**
 * The samples of the sky the colour tests and the energy fit read: pixels GRID_DEG apart,
 * MIN_ELEVATION up (taken once per panorama; `viewSky` and `skyTint` pick from them).
 * @param clip channel value at which the image clips (pixels reaching 99% of it count as clipped)
 */
export function fitSamples(image: HdrPixels, clip: number): SkySamples {
  return skySamples(image, clip, GRID_DEG, MIN_ELEVATION);
}

/**
 * The sky's samples around a sun in direction `sun`: more than MIN_FROM_SUN from it, and
 * unclipped (or, in a blue sky bright enough to clip in blue everywhere, clipped in one
 * channel at most).
 * @returns the samples, or null with too few to fit
 */
export function viewSky(sky: SkySamples, sun: readonly number[]): SkyView | null {
  const samples = usableSky(sky, sun);
  return samples.logL.length < MIN_SAMPLES ? null : { sun, samples };
}

/** The samples off the sun (`sun` null: every one), unclipped unless too few are. */
function usableSky(sky: SkySamples, sun: readonly number[] | null): Samples {
  const samples = offTheSun(sky, sun, 0);
  // A blue sky brighter than the clip level clips in blue everywhere: its luminance, short of at most blue's share, is still the sky's.
  return samples.logL.length < MIN_SAMPLES ? offTheSun(sky, sun, 1) : samples;
}

/** The tint of a panorama's sky (SkyTint), from its `fitSamples`. */
export function skyTint(sky: SkySamples): SkyTint {
  const s = usableSky(sky, null);
  return {
    blueness: median(s.blue.filter((_, i) => s.cosTheta[i]! >= Math.sin(UPPER_SKY))) ?? 0,
    horizonBlueness: median(s.blue.filter((_, i) => s.cosTheta[i]! < Math.sin(HORIZON_BAND))),
  };
}

/**
 * The median (B - R) / (B + R) of a view's samples 10 to 40 degrees from its sun (null with
 * none unclipped): a clear sky's Rayleigh blue shows there through the aureole (less blue at
 * dawn, its light reddened); fog or a veil of cloud in front of the sun gives it the sun's
 * own colour, white or red (its droplets scatter every wavelength alike).
 */
export function aureoleBlueness({ samples: s }: SkyView): number | null {
  return median(s.blue.filter((_, i) => s.gamma[i]! >= AUREOLE[0] && s.gamma[i]! < AUREOLE[1]));
}

/**
 * Fits the clear-sky model to a view of the sky (`viewSky`). The predicted irradiance is the
 * fitted scale times Preetham's sun through an aerosol-free path (turbidity 1): the sky's
 * shape fixes its scale well at every elevation but says little about the aerosol along
 * the sun's own grazing path, which decides the sun's energy at sunset (tens of air
 * masses); a clear path is the bound a clear sky allows.
 */
export function fitSky({ sun, samples: s }: SkyView): SkyFit {
  const n = s.logL.length;
  const thetaSun = Math.acos(Math.min(1, Math.max(-1, sun[1]!)));
  const r = new Float64Array(n);
  const logL = Float64Array.from(s.logL);
  const logPerez = logPerezOf(s);
  const cost = (t: number) => {
    const c = perezCoefficients(t);
    const log0 = Math.log(zenithLuminance(t, thetaSun) / perez(c, 1, thetaSun));
    logPerez(c, r);
    for (let i = 0; i < n; i++) r[i] = logL[i]! - log0 - r[i]!;
    return { turbidity: t, ...trimmedCost(r) };
  };
  let best = COARSE.map(cost).reduce((a, b) => (b.cost < a.cost ? b : a));
  for (let k = -4; k <= 4; k++) {
    const t = best.turbidity + k * 0.1;
    if (k === 0 || t < COARSE[0]!) continue;
    const tried = cost(t);
    if (tried.cost < best.cost) best = tried;
  }
  const scale = Math.exp(best.centre);
  const sunKlux = sunIrradiance(PATH_TURBIDITY, thetaSun);
  return {
    turbidity: Math.round(best.turbidity * 10) / 10,
    scale,
    residual: Math.sqrt(best.cost),
    samples: n,
    irradiance: [sunKlux[0] * scale, sunKlux[1] * scale, sunKlux[2] * scale],
  };
}

/** The median of `values` (the upper one of an even count), null when empty. */
function median(values: number[]): number | null {
  return values.length ? nthSmallest(Float64Array.from(values), values.length >> 1) : null;
}

/**
 * The fitted sky's luminance (panorama units) in a view at `gamma` from the sun and at the
 * sun's own elevation.
 */
export function fittedLuminance(fit: SkyFit, thetaSun: number, gamma: number): number {
  const c = perezCoefficients(fit.turbidity);
  return (fit.scale * zenithLuminance(fit.turbidity, thetaSun) * perez(c, Math.cos(thetaSun), gamma)) / perez(c, 1, thetaSun);
}

/** Samples more than MIN_FROM_SUN from `sun` (every one, with `sun` null), with at most `clippedChannels` of their channels clipped. */
function offTheSun(sky: SkySamples, sun: readonly number[] | null, clippedChannels: number): Samples {
  const out: Samples = { cosTheta: [], gamma: [], logL: [], blue: [] };
  const d = sky.direction;
  for (let i = 0; i < sky.count; i++) {
    if (sky.clipped[i]! > clippedChannels) continue;
    const [x, y, z] = [d[i * 3]!, d[i * 3 + 1]!, d[i * 3 + 2]!];
    const gamma = sun ? Math.acos(Math.min(1, Math.max(-1, x * sun[0]! + y * sun[1]! + z * sun[2]!))) : Math.PI;
    if (gamma < MIN_FROM_SUN) continue;
    out.cosTheta.push(y);
    out.gamma.push(gamma);
    out.logL.push(sky.logL[i]!);
    out.blue.push(sky.blue[i]!);
  }
  return out;
}

/**
 * The median of r and the mean squared deviation from it of the KEEP closest values. Works in
 * place: r's values are reordered and replaced by their squared deviations (a fit calls it
 * for every turbidity and sun it tries, over thousands of residuals it has no further use for).
 */
export function trimmedCost(r: Float64Array): { cost: number; centre: number } {
  const centre = nthSmallest(r, r.length >> 1);
  const dev = r;
  for (let i = 0; i < dev.length; i++) dev[i] = (dev[i]! - centre) * (dev[i]! - centre);
  const keep = Math.max(1, Math.floor(dev.length * KEEP));
  // The keep smallest deviations lie before index keep once the keep-th is selected (in no order: summed, not sorted).
  if (keep < dev.length) nthSmallest(dev, keep);
  let sum = 0;
  for (let i = 0; i < keep; i++) sum += dev[i]!;
  return { cost: sum / keep, centre };
}
