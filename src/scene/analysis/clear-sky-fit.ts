/**
 * A robust fit of the Perez clear-sky distribution (preetham.ts) to a panorama's sky, with
 * censored data: the model of the sky's log luminance is log k + log F(theta, gamma; T),
 * F the Perez distribution for turbidity T with the sun in a given direction, k a scale.
 * An unclipped sample costs rho(observed - model); a clipped one (censored: at least its
 * value) costs rho(observed - model) only where the model falls short of it. rho is the
 * Cauchy loss, so what is not clear sky (terrain, buildings, clouds, a lamp's ceiling)
 * costs little more than a bad fit and does not drag the fit (Lalonde & Matthews, 3DV 2014,
 * fit the same model to the sky pixels of LDR panoramas; Hold-Geoffroy et al., CVPR 2017,
 * its Hošek–Wilkie successor).
 *
 * The same data fitted without a sun (the Perez gradation alone: brighter towards the
 * horizon, or the CIE overcast sky: darker towards it) costs more where a sun lights the
 * sky: the difference per sample is the evidence for a sun (`skyEvidence`), as a mean
 * log-likelihood ratio per sample under the fit's Cauchy errors (nats). Positive where the
 * sky brightens towards that direction the way a sunlit sky does; negative where a sun
 * there would light a sky the picture does not show (a sun placed on the wrong side).
 */
import type { HdrPixels } from "./hdr-pixels.ts";
import { perez, perezCoefficients, perezGradation } from "./preetham.ts";
import { type SkySamples, skySamples } from "./sky-samples.ts";

/** Spacing (degrees) of the samples fitted: finer than the sky's gradation and aureole change, coarse enough to fit fast. */
const GRID_DEG = 3;

/**
 * Scale of the Cauchy loss (natural log units): measured clear skies scatter about the Perez
 * distribution by 15 to 25% rms (Ineichen et al. 1994; Lalonde & Matthews 2014), so a
 * residual of 0.2 is an ordinary sky, and one of 1 (a factor of e) is something else.
 */
const SIGMA = 0.2;
/** Turbidities tried: a very clear sky (2) to a hazy one (10), the range the Perez coefficients were fitted over. */
const TURBIDITIES = [2, 3, 4.5, 6.5, 10] as const;

export interface SkyFitResult {
  /** Mean Cauchy cost per sample (0: every sample on the model). */
  cost: number;
  turbidity: number;
  /** Log of the scale k: the model's luminance is k F. */
  logScale: number;
}

/** Per-sample log F of the Perez distribution for a sun at `sun` (unit vector), turbidity `t`. */
function logPerez(s: SkySamples, sun: readonly number[], t: number, out: Float64Array): void {
  const c = perezCoefficients(t);
  const d = s.direction;
  for (let i = 0; i < s.count; i++) {
    const cos = d[i * 3]! * sun[0]! + d[i * 3 + 1]! * sun[1]! + d[i * 3 + 2]! * sun[2]!;
    out[i] = Math.log(perez(c, d[i * 3 + 1]!, Math.acos(cos > 1 ? 1 : cos < -1 ? -1 : cos)));
  }
}

/** Per-sample log F of a sky without a sun: Perez's gradation for turbidity `t`, or (t = 0) the CIE overcast sky. */
function logSunless(s: SkySamples, t: number, out: Float64Array): void {
  const c = perezCoefficients(t);
  for (let i = 0; i < s.count; i++) {
    const cosTheta = s.direction[i * 3 + 1]!;
    out[i] = t === 0 ? Math.log((1 + 2 * cosTheta) / 3) : Math.log(perezGradation(c, cosTheta));
  }
}

const rho = (r: number) => Math.log(1 + (r / SIGMA) * (r / SIGMA));

/**
 * The scale of least cost for per-sample model values `logF` and that cost: iteratively
 * reweighted least squares on the unclipped samples and the censored ones the model falls
 * short of, from the median offset of the unclipped ones.
 */
function scaleAndCost(s: SkySamples, logF: Float64Array): { cost: number; logScale: number } {
  const offsets: number[] = [];
  for (let i = 0; i < s.count; i++) if (!s.clipped[i]) offsets.push(s.logL[i]! - logF[i]!);
  if (offsets.length === 0) return { cost: Infinity, logScale: 0 };
  offsets.sort((a, b) => a - b);
  let logK = offsets[offsets.length >> 1]!;
  for (let iter = 0; iter < 6; iter++) {
    let sw = 0;
    let swr = 0;
    for (let i = 0; i < s.count; i++) {
      const r = s.logL[i]! - logF[i]! - logK;
      if (s.clipped[i] && r <= 0) continue;
      const w = 1 / (1 + (r / SIGMA) * (r / SIGMA));
      sw += w;
      swr += w * r;
    }
    if (sw === 0) break;
    logK += swr / sw;
  }
  let cost = 0;
  for (let i = 0; i < s.count; i++) {
    const r = s.logL[i]! - logF[i]! - logK;
    if (!(s.clipped[i] && r <= 0)) cost += rho(r);
  }
  return { cost: cost / s.count, logScale: logK };
}

/** The clear sky with its sun at `sun` that fits the samples best, over TURBIDITIES. */
export function fitWithSun(s: SkySamples, sun: readonly number[]): SkyFitResult {
  const logF = new Float64Array(s.count);
  let best: SkyFitResult = { cost: Infinity, turbidity: TURBIDITIES[0], logScale: 0 };
  for (const t of TURBIDITIES) {
    logPerez(s, sun, t, logF);
    const fit = scaleAndCost(s, logF);
    if (fit.cost < best.cost) best = { ...fit, turbidity: t };
  }
  return best;
}

/** The sunless sky that fits the samples best: Perez's gradation over TURBIDITIES, or the CIE overcast sky (turbidity 0). */
export function fitWithoutSun(s: SkySamples): SkyFitResult {
  const logF = new Float64Array(s.count);
  let best: SkyFitResult = { cost: Infinity, turbidity: 0, logScale: 0 };
  for (const t of [0, ...TURBIDITIES]) {
    logSunless(s, t, logF);
    const fit = scaleAndCost(s, logF);
    if (fit.cost < best.cost) best = { ...fit, turbidity: t };
  }
  return best;
}

/**
 * The evidence function of a panorama (a sun's evidence: how much better its sky fits a clear
 * sky lit from it than the best sky without a sun): the samples and the sunless fit are made once.
 * @param clip the largest channel value of the panorama's sky (clipped samples are censored there)
 */
export function skyEvidence(image: HdrPixels, clip: number): (sun: readonly number[]) => number {
  const samples = skySamples(image, clip, GRID_DEG);
  let sunless: number | undefined;
  return (sun) => {
    sunless ??= fitWithoutSun(samples).cost;
    return sunless - fitWithSun(samples, sun).cost;
  };
}
