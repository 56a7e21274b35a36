/**
 * Whether a panorama's sky shows a sun in a given direction: the model comparison of the
 * clear-sky fit (clear-sky-fit.ts). The evidence is how much better the sky's samples fit a
 * clear sky lit by a sun there than the best sky without a sun, as a mean log-likelihood
 * ratio per sample under the fit's Cauchy errors (nats). Positive where the sky brightens
 * towards that direction the way a sunlit sky does; negative where a sun there would light
 * a sky the picture does not show (a sun placed on the wrong side).
 */
import type { HdrPixels } from "./hdr-pixels.ts";
import { fitWithoutSun, fitWithSun } from "./clear-sky-fit.ts";
import { skySamples } from "./sky-samples.ts";

/**
 * The evidence function of a panorama: the samples and the sunless fit are made once.
 * @param clip the largest channel value of the panorama's sky (censored samples reach it)
 */
export function skyEvidence(image: HdrPixels, clip: number): (sun: readonly number[]) => number {
  const samples = skySamples(image, clip);
  let sunless: number | undefined;
  return (sun) => {
    sunless ??= fitWithoutSun(samples).cost;
    return sunless - fitWithSun(samples, sun).cost;
  };
}
