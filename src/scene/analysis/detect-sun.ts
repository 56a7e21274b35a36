/**
 * Finding the sun in an HDR panorama: a compact spot above the horizon that casts a real
 * share of the light, with its direction, colour and the irradiance it casts. A pure
 * function of the pixels (no Babylon scene), as fast for an 8K panorama as for a 1K one: it
 * is searched at most 1K wide (SEARCH_WIDTH), where a scan finds a few candidates
 * (sun-candidates.ts), each is measured in a window of a few degrees (sun-measure.ts), and
 * the one casting the most light wins; that one is measured again in the whole panorama.
 *
 * The test is relative to the sun's own sky, not to a fixed radiance: a spot is the sun
 * when it stands out of the sky around it and its irradiance is at least `minShare` of
 * what the sky casts on an upward surface at the horizon, rising with its elevation (a
 * high sun that casts less than the sky is one glimpsed through cloud). So a sun at 1
 * degree in the glow of a sunset is found, and none is at night (the moon casts a few
 * hundredths of the night sky's light), under overcast or storm clouds or in thick fog;
 * lamps are specks; clouds lit by the sun are not compact; snow and the sun's reflection
 * on water lie below the horizon.
 *
 * A clipped disk (an HDRI made from an 8-bit picture: its brightest pixels flat at the
 * image's largest value) has lost its energy: a clear-sky model fitted to the sky around
 * it (sky-fit.ts) gives it back, when the sky is a clear one (blue for the sun's elevation
 * or red along the horizon under a low sun, around the sun as blue as Rayleigh scattering
 * of its light makes it, and well fitted: fog in front of a sun gives the sky around it the
 * sun's own colour, and greys the horizon).
 * When the sky around the sun clips too, only a saturated blob is left: the sun is placed
 * at the centre of its part clipped white that the clear sky fits a sun in best
 * (saturated-blob.ts), and the fitted clear sky must reach the clip level at its edge. A
 * blob of lit cloud can pass all that: a blob's sun whose sky fits a clear sky clearly worse
 * than a sun elsewhere in the clipped sky is refused (clear-sky-search.ts). In a clipped sky the brightest spots tie at the clip
 * level, so besides the scan's candidates the saturated spot the clear sky points to is
 * tried (clear-sky-search.ts): a sun that clips as a small disk among lit clouds. The result
 * says which it is (`source`) and how far to trust it (`confidence`).
 *
 * Whatever found it, a sun is then checked against the whole sky (clear-sky-fit.ts): a
 * clear sky lit from it must explain the sky's samples not clearly worse than a sky without
 * a sun (MIN_EVIDENCE), so no light comes from the wrong side; a disk that casts too little
 * for its share is kept where the sky is plainly lit from it (STRONG_EVIDENCE). A blob wider
 * than PLACE_WITHIN does not place its sun unless its disk shows (TooWide): none is reported,
 * unless a disk is measured elsewhere, or a clipped one elsewhere fits the clear sky clearly
 * better than the blob's sun (CLEARLY_BETTER).
 */
import { azimuthOfU, elevationOfV, uOfDirection, vOfDirection } from "../../api/panorama/panorama-directions.ts";
import { type HdrPixels, pointSampled } from "./hdr-pixels.ts";
import { airMass, luminanceOf, rayleighBlueness } from "./preetham.ts";
import { aureoleBlueness, fitSamples, fitSky, fittedLuminance, type SkyFit, skyTint, type SkyTint, viewSky } from "./sky-fit.ts";
import type { SkySamples } from "./sky-samples.ts";
import { bestClippedSpot, CLEARLY_BETTER, type ClearSkyCosts, clearSkyCosts } from "./clear-sky-search.ts";
import { clippedDiskSolidAngle, type FloodedBlobs, floodedBlobs, placeInBlob, type SaturatedBlob } from "./saturated-blob.ts";
import { luminanceAt, scanSky, SEPARATION_DEG, type SkyScan, type SunCandidate } from "./sun-candidates.ts";
import { atTop, coreSolidAngle, type MeasuredSpot, measureSpot, SATURATED } from "./sun-measure.ts";
import { skyEvidence } from "./clear-sky-fit.ts";

/** Where a disk's pixels are in the panorama it was found in. */
export interface DiskPlace {
  width: number;
  height: number;
  /** Index of each pixel of the disk (row * width + column), in the order of `disk.pixels`. */
  indices: number[];
}

/** The sun of a panorama, in the panorama's frame (see src/api/panorama/panorama-directions.ts). */
export interface DetectedSun {
  /** Unit vector towards the sun: right-handed, +Y up, the panorama's centre at -Z, u = 0.75 at +X. */
  direction: [number, number, number];
  /** Radians around the vertical: 0 at the panorama's centre, +pi/2 at u = 0.75 (-pi..pi). */
  azimuth: number;
  /** Radians above the horizon. */
  elevation: number;
  /** Linear RGB of the sunlight, brightest channel 1. */
  color: [number, number, number];
  /**
   * Irradiance of the brightest channel on a surface facing the sun: `color` times
   * `intensity` is the sun's irradiance per channel, what a Babylon `DirectionalLight`'s
   * intensity means to PBR materials.
   */
  intensity: number;
  /** Rec. 709 luminance of the irradiance. */
  illuminance: number;
  /** Solid angle of the disk (steradians): its irradiance over its peak radiance. */
  solidAngle: number;
  /**
   * Where the irradiance comes from: the disk's own pixels (`measured`), or, for a clipped
   * disk, the clear-sky model fitted to the sky around it (`estimated`).
   */
  source: "measured" | "estimated";
  /** How far to trust the irradiance, 0 to 1. */
  confidence: number;
  /** Turbidity of the fitted clear sky (estimated suns), else null. */
  turbidity: number | null;
  /**
   * The disk as the panorama's pixels hold it (clipped, for an estimated sun): the sky's
   * radiance behind it, and for each of its pixels the radiance it adds to that sky (RGB)
   * and its solid angle, flattened in fours. An environment made from these pixels holds
   * this much of the sun (sun-harmonics.ts takes it out while the light shines). `at` says
   * where they are: the panorama's size and each pixel's index (rows from the top), so the
   * sun's share of a cube made from this panorama is known exactly, texel by texel.
   */
  disk: { sky: [number, number, number]; pixels: number[]; at?: DiskPlace };
}

/** Thresholds of `detectSun`. */
export interface DetectSunOptions {
  /**
   * Least ratio of the sun's irradiance (on a surface facing it) to the sky's on an upward
   * surface, for a sun at the horizon; it rises to 2.25 times that at the zenith. A clear
   * sky's sun casts 0.6 to 2.5 times the sky's light at sunset and 3 to 5 times at noon;
   * one glimpsed through overcast, storm clouds or fog, 0.05 to 0.45 times.
   * @default 0.4
   */
  minShare?: number;
}

/** Spots measured at most (a clipped image has many spots of equal brightness). */
const CANDIDATES = 8;
/** Least ratio of an unclipped sun's peak to the sky around it. */
const LOCAL_CONTRAST = 3;
/** A clipped sun is at least this much brighter than the sky around it. */
const CLIPPED_CONTRAST = 1.2;
/** Largest residual (rms, natural log) of a clear-sky fit trusted for an estimate. */
const MAX_RESIDUAL = 0.35;
/**
 * Least blueness (sky-fit.ts) of a sky trusted to be clear: MIN_BLUENESS, and with the sun
 * higher up, CLEAR_BLUENESS of a pure Rayleigh sky's for the sun's elevation (aerosols of a
 * clear day whiten it somewhat; the grey of fog, overcast or storm clouds far more: 0.15
 * to 0.23 with the sun 25 to 65 degrees up, where a clear sky shows 0.55). With the sun low,
 * MIN_BLUENESS alone: a clear golden-hour lake's sky shows 0.141, a foggy dawn's 0.128 (a
 * paler one passes by its red horizon, RED_HORIZON).
 */
const MIN_BLUENESS = 0.135;
const CLEAR_BLUENESS = 0.75;
/**
 * The sky 10 to 40 degrees from the sun (its aureole) must be at most AUREOLE_MARGIN less
 * blue than a pure Rayleigh sky lit at the sun's elevation, and need be no bluer than
 * AUREOLE_BLUENESS. A clear sky's Rayleigh blue shows through its aureole; fog or a veil of
 * cloud in front of the sun scatters every wavelength alike, giving it the sun's own colour:
 * white with the sun high (near zero blueness, where a clear sky's aureole is clearly blue),
 * the sun's red at dawn (several times AUREOLE_MARGIN under the Rayleigh sky's blue, where
 * a clear low sun's aureole stays within a few hundredths of it). Such a sun's disk may
 * clip at the same level as a clear one's while it casts a tenth of the light.
 */
const AUREOLE_BLUENESS = 0.1;
const AUREOLE_MARGIN = 0.07;
/**
 * Largest blueness of the sky under 10 degrees up that says a sky is clear however pale its
 * upper sky: a low sun's light, reddened along a clear grazing path, lights the air near the
 * horizon all round, a clear golden-hour sky's upper part may be paler than MIN_BLUENESS
 * while its horizon is deeply red; a sky in fog or under overcast is lit by grey diffuse
 * light, and its horizon stays less red than this.
 */
const RED_HORIZON = -0.55;
/**
 * Largest ratio of the clip level to the fitted clear sky at a saturated blob's edge: the
 * Perez distribution's circumsolar term is smooth, and a real aureole (or the local
 * renderer's Mie one) is up to about 2 to 3 times brighter a few degrees from the sun. A
 * glow clipped above a ridge that hides the sun, or an aurora, lies far beyond a clear
 * sky's light.
 */
const CLIP_REACH = 3;
/**
 * Least irradiance (luminance) of the sky on an upward surface under an estimated sun. A
 * clipped moon in a clear moonlit sky is a clipped sun in a dim day sky: the same
 * scattering of the same light, some 400 000 times fainter, and a stylised picture may
 * light the ground under it as brightly. Only the sky's level tells them apart, in an HDRI
 * that keeps the scale of the scene (the local service's: a moonlit sky casts 0.014 to
 * 0.016, a day sky with the sun 1.2 degrees up 0.29) or of the picture it was made from
 * (white at 1: a day sky's display is bright, a night sky's dark).
 */
const MIN_SKY_IRRADIANCE = 0.05;
/**
 * Largest excess of a blob's sun's clear-sky cost over the least of the lattice
 * (clear-sky-search.ts). The Perez shape is off a painted or rendered sky by a few degrees,
 * its best sun lying well away from the drawn one, so a true sun costs a little more than
 * the lattice's best, most with the sun 7 to 11 degrees up; a sun placed on a cloud costs
 * anything from nothing to ten times more. The bound lies just above what true suns cost
 * when the picture clips at 1.0: it refuses the suns that fit clearly worse (the others are
 * refused by the other tests of a clear sky, or lose to the sun's own blob), and lets
 * through a white fleck on the horizon under a cirrus morning's sun.
 */
const CLOUD_EXCESS = 0.009;
/**
 * Widest panorama the sun is searched in: a wider one is read every few pixels
 * (pointSampled), and the sun found there has its disk measured again in the whole
 * panorama (`listedDisk`). Its pixels are 0.35 degrees apart, six times closer than an
 * 8-bit picture's sun must be placed, and its disk covers two of them; both corpora that
 * judge the detection are read at this width or less (real-skies.ts, sun-corpus.ts), and
 * `applySkybox` finds the sun in a 1K export unless told otherwise. Read whole, near the
 * zenith of an 8K panorama one spot's window holds half a million pixels, and a saturated
 * blob millions.
 */
const SEARCH_WIDTH = 1024;
/** Pixels from a candidate (its block's brightest pixel) its spot's peak may lie: a brighter neighbour across the block's edge. */
const PEAK_REACH = 1;
const DEG = Math.PI / 180;
/**
 * The sky's evidence for a sun (clear-sky-fit.ts: how much better, per sky sample and in
 * nats, a clear sky lit by a sun there explains the sky than the best sky without a sun).
 * A sun is refused when a sunless sky explains the sky clearly better (MIN_EVIDENCE): a
 * sun there would light a sky the picture does not show, so its light would come from the
 * wrong side. A disk that casts less than its share (`minShare`: dimmed by haze, or its
 * pixels by lossy compression) is still the sun when the whole sky is lit from it as a
 * clear sky is (STRONG_EVIDENCE): a sunlit sky gains about half a nat per sample, a sky
 * with a low sun's glow along the horizon, or a room lit by lamps or a skylight, a few
 * tenths at most.
 */
const MIN_EVIDENCE = -0.1;
const STRONG_EVIDENCE = 0.4;
/**
 * Widest (equivalent radius of) saturated blob a sun is placed in: the accuracy an 8-bit
 * picture's sun must be placed with to cast the shadows the picture shows.
 */
const PLACE_WITHIN = 3 * DEG;
/**
 * The sky's scan, with the samples the sky's fit reads (sky-fit.ts) and the sky's tint
 * (whether it can be a clear sky's, wherever its sun is), read when first asked.
 */
type Scan = SkyScan & { sky(): SkySamples; tint(): SkyTint };

/** The answer of `findSun`: the sun, or why the sky has none, in words a pane can show. */
export type SunFinding = { sun: DetectedSun; why: null } | { sun: null; why: string };

/** Why a sky has no sun. */
export const NO_SUN = {
  /** No spot passed: none bright and compact enough, or none whose sky says it is a sun. */
  none: "no spot of the sky passes for a sun the picture places (not bright and compact enough, or its sky not a clear one lit by it)",
  /** A saturated blob held a sun it could not place (TooWide), or was too large to place one in. */
  tooWide: "the sky's brightest part is clipped too widely to place a sun in it (an 8-bit picture's glow)",
  /** The sun found lights a sky the picture does not show (MIN_EVIDENCE). */
  notLit: "the sky is not lit the way a sun at its brightest spot would light it",
} as const;

/**
 * Finds the sun in a decoded HDR panorama.
 * @param image linear RGB floats, top row first (`decodeHdr`)
 * @param options detection thresholds
 * @returns the sun, or null when none shows
 */
export function detectSun(image: HdrPixels, options: DetectSunOptions = {}): DetectedSun | null {
  return findSun(image, options).sun;
}

/**
 * Finds the sun in a decoded HDR panorama, or says why there is none. A panorama wider than
 * SEARCH_WIDTH is searched every few pixels, and the sun found measured again whole.
 * @param image linear RGB floats, top row first (`decodeHdr`)
 * @param options detection thresholds
 */
export function findSun(image: HdrPixels, options: DetectSunOptions = {}): SunFinding {
  const factor = Math.ceil(image.width / SEARCH_WIDTH);
  const sampled = pointSampled(image, factor);
  const search = searchSun(sampled, options.minShare ?? 0.4);
  if (!search.found) return { sun: null, why: search.why };
  return { sun: search.spot ? listedDisk(image, sampled, factor, search.found, search.spot) : search.found, why: null };
}

/** What `searchSun` found: the sun and the spot it was measured from, or why there is none. */
type Search = { found: DetectedSun; spot: Spot | null; why: null } | { found: null; spot: null; why: string };

const none = (why: string): Search => ({ found: null, spot: null, why });

/** Where a sun was measured: the scan's candidate and the image's clip level. */
interface Spot {
  candidate: SunCandidate;
  clip: number;
}

/**
 * The sun of `found`, measured from `spot` of `sampled` (the panorama read every `factor`
 * pixels), with its disk's pixels listed as `image` holds them: the environment is made from
 * the whole panorama, and the disk's share of it is taken from these pixels
 * (sun-harmonics.ts). A disk the pixels light (a measured sun) is the sun's light too, so it
 * is measured there whole; a clipped one holds only what the fit was not given. When the
 * whole panorama does not hold it as a sun, its disk is listed in `sampled`. (With `factor` 1,
 * `sampled` is `image`, and this is the search's own measure, its pixels listed.)
 */
function listedDisk(image: HdrPixels, sampled: HdrPixels, factor: number, found: DetectedSun, spot: Spot): DetectedSun {
  const { candidate, clip } = spot;
  const half = factor >> 1;
  // The peak is within PEAK_REACH pixels of `sampled` from the candidate, each standing for `factor` of `image`.
  const whole = { x: candidate.x * factor + half, y: candidate.y * factor + half, luminance: candidate.luminance };
  const measure =
    measureSpot(image, whole, PEAK_REACH * factor + half, clip, true) ?? measureSpot(sampled, candidate, PEAK_REACH, clip, true)!;
  return found.source === "measured" ? { ...measure.sun, confidence: found.confidence } : { ...found, disk: measure.sun.disk };
}

/** `findSun` in a panorama at most SEARCH_WIDTH wide: the disk's pixels are not listed. */
function searchSun(image: HdrPixels, minShare: number): Search {
  const scanned = scanSky(image, CANDIDATES);
  let sky: SkySamples | undefined;
  let tint: SkyTint | undefined;
  const samples = () => (sky ??= fitSamples(image, scanned.top));
  const scan: Scan = { ...scanned, sky: samples, tint: () => (tint ??= skyTint(samples())) };
  const core = coreSolidAngle(image.width);
  let found = null as DetectedSun | null;
  // Saturated pixels of the blobs placed so far: a large blob holds several candidates, placed once.
  let seen: FloodedBlobs | undefined;
  // The clear sky's cost of suns across the clipped sky (clear-sky-search.ts), made once for the first blob's sun.
  let costs: ClearSkyCosts | undefined;
  // The sky's evidence for a sun in a direction (clear-sky-fit.ts), its samples made for the first asked.
  let evidenceAt: ((sun: readonly number[]) => number) | undefined;
  const evidence = (sun: DetectedSun) => (evidenceAt ??= skyEvidence(image, scan.top))(sun.direction);
  // The sun of a saturated blob too wide to place it in (TooWide) that the clear sky fits best.
  let unplaced: DetectedSun | null = null;
  const keepUnplaced = (answer: TooWide, costs: ClearSkyCosts) => {
    if (!unplaced || fitsBetter(answer.tooWide, unplaced, costs)) unplaced = answer.tooWide;
  };
  // The candidate whose measured spot gave `found` (null: a blob's sun): its disk's pixels are listed for it alone.
  let foundAt: SunCandidate | null = null;
  // Tries a candidate: the best sun so far is kept in `found`, a blob too wide to place it in, in `unplaced`.
  // A spot the clear sky pointed to (`pointed`) holds one only where its disk's own pixels place it (a blob's white part
  // does not) and the whole sky is plainly lit from it (STRONG_EVIDENCE): the model chose it, the sky must confirm it.
  const consider = (candidate: SunCandidate, pointed = false): void => {
    // A spot that could not cast its share even filling the core, and cannot be clipped, is skipped unmeasured.
    const most = candidate.luminance * core;
    if (most < minShare * (scan.skyIrradiance - most) && candidate.luminance < 0.25 * scan.top) return;
    // A candidate in a saturated blob flooded before is a part of it (the clipped sky's top rows often are): its
    // spot is that blob, already tried.
    if (seen?.mask[indexOf(candidate, image)]) return;
    const spot = measureSpot(image, candidate, PEAK_REACH, scan.top);
    let sun: DetectedSun | null = null;
    let byBlob = false;
    if (spot && !spot.clipped) sun = measured(spot, scan, minShare, evidence);
    else if (spot && compact(image, spot)) sun = estimated(image, spot, scan, minShare);
    else {
      byBlob = true;
      seen ??= floodedBlobs(image);
      // A blob's sun is an estimated one, which only a sky that can be a clear one holds (`mayBeClear`): a blob in
      // any other is not worth flooding. (Asked of a seed that clips: another floods no blob.)
      costs ??= clearSkyCosts(image, scan.top);
      const answer =
        clipsAt(image, candidate, scan.top) && !mayBeClear(scan.tint())
          ? null
          : fromBlob(image, candidate, scan, minShare, seen, costs.at, pointed);
      if (!isTooWide(answer)) sun = answer;
      else keepUnplaced(answer, costs);
      if (sun && onCloud(sun, costs)) sun = null;
    }
    if (sun && pointed && evidence(sun) < STRONG_EVIDENCE) sun = null;
    if (sun && (!found || better(sun, found))) {
      found = sun;
      foundAt = byBlob ? null : candidate;
    }
  };
  for (const candidate of scan.candidates) consider(candidate);
  // In a clipped sky the brightest spots tie at the clip level, and the scan keeps the first rows it read: the
  // saturated spot the sky's gradation points to is tried as well (it says which spot, not where in a glow). Its sun
  // would be an estimated one, which a measured sun found already outranks.
  if (found?.source !== "measured" && clipsAt(image, scan.candidates[0], scan.top)) {
    costs ??= clearSkyCosts(image, scan.top);
    const spot = spotCandidate(image, scan.top, costs);
    if (spot) consider(spot, true);
  }
  if (found && costs && seen) {
    const answer = pointedBlob(image, scan, minShare, seen, costs);
    if (isTooWide(answer)) keepUnplaced(answer, costs);
    else if (answer && elsewhere(answer, found)) {
      found = answer;
      foundAt = null;
    }
  }
  // The disk clips wherever anything does: with a sun's blob too wide to place it in, a clipped spot elsewhere (a
  // fleck of lit cloud) is no more the sun than any other part of that blob, unless the clear sky fits a sun there
  // clearly better than in the blob (a glow of the horizon's haze under a high sun). A measured sun, whose disk
  // shows, always stands.
  if (unplaced && (!found || (found.source === "estimated" && !fitsClearlyBetter(found, unplaced, costs!)))) return none(NO_SUN.tooWide);
  if (!found) return none(seen?.tooLarge ? NO_SUN.tooWide : NO_SUN.none);
  if (evidence(found) < MIN_EVIDENCE) return none(NO_SUN.notLit);
  return { found, spot: foundAt ? { candidate: foundAt, clip: scan.top } : null, why: null };
}

/**
 * A saturated blob's answer when it holds a sun it cannot place: the disk is somewhere in
 * the blob (it is the brightest thing in the sky, so it clips wherever anything does), and
 * unless its own pixels show (`byDisk`), where in it is read from its parts clipped white.
 * In a blob wider than PLACE_WITHIN, a real sky's glow (haze, clouds lit at its edge, the
 * horizon's brightening) has put suns 3 to 12 degrees from the real one in photographs'
 * 8-bit exports: none is reported, unless a disk is measured elsewhere (the glow is then a
 * lit cloud's) or a clipped one elsewhere fits the clear sky clearly better than the blob's
 * sun (the glow is then the horizon's haze). The sun it would have placed is kept, for that
 * comparison.
 */
interface TooWide {
  tooWide: DetectedSun;
}

function isTooWide(answer: DetectedSun | TooWide | null): answer is TooWide {
  return answer !== null && "tooWide" in answer;
}

/** Whether the clear sky fits a sun at `a` better than at `b` (clear-sky-search.ts). */
function fitsBetter(a: DetectedSun, b: DetectedSun, costs: ClearSkyCosts): boolean {
  return costs.at(a.direction) < costs.at(b.direction);
}

/** Whether the clear sky fits a sun at `a` clearly better than at `b` (CLEARLY_BETTER). */
function fitsClearlyBetter(a: DetectedSun, b: DetectedSun, costs: ClearSkyCosts): boolean {
  return CLEARLY_BETTER * costs.at(a.direction) <= costs.at(b.direction);
}

/** Whether a candidate's pixel has two channels at the image's largest value. */
function clipsAt(image: HdrPixels, candidate: SunCandidate | undefined, clip: number): boolean {
  return candidate !== undefined && atTop(image.rgb, candidate.y * image.width + candidate.x, SATURATED * clip);
}

/** The saturated spot the clear sky points to, as a candidate. */
function spotCandidate(image: HdrPixels, clip: number, costs: ClearSkyCosts): SunCandidate | null {
  const spot = bestClippedSpot(image, clip, costs.at);
  if (!spot) return null;
  const x = spot.pixel % image.width;
  const y = Math.floor(spot.pixel / image.width);
  return { x, y, luminance: luminanceAt(image.rgb, spot.pixel) };
}

/** The candidate's pixel index in `image` (row * width + column). */
function indexOf(candidate: SunCandidate, image: HdrPixels): number {
  return candidate.y * image.width + candidate.x;
}

/**
 * The sun of the blob the clear sky points to (its lattice's best), when a blob's sun was
 * found and no candidate lay in that blob: at the clip level the candidates are the clipped
 * sky's top rows, often cloud tops. A glow too wide to place its sun in (TooWide) counts as
 * a candidate's does. (With no sun found it is not tried: a sky whose candidates hold no sun
 * has none for the lattice to point to, and a large merged blob takes a tenth of a second or
 * more to flood.)
 */
function pointedBlob(
  image: HdrPixels,
  scan: Scan,
  minShare: number,
  seen: FloodedBlobs,
  costs: ClearSkyCosts,
): DetectedSun | TooWide | null {
  if (costs.best < 0 || seen.mask[costs.best]) return null;
  const candidate = { x: costs.best % image.width, y: Math.floor(costs.best / image.width), luminance: scan.top };
  const answer = fromBlob(image, candidate, scan, minShare, seen, costs.at, false);
  return answer && (isTooWide(answer) || !onCloud(answer, costs)) ? answer : null;
}

/**
 * Whether a blob's sun is a lit cloud: the unclipped sky fits a clear sky with its sun there
 * worse by more than CLOUD_EXCESS (mean squared log residual) than with a sun elsewhere in
 * the clipped sky (clear-sky-search.ts).
 */
function onCloud(sun: DetectedSun, costs: ClearSkyCosts): boolean {
  return costs.at(sun.direction) - costs.least > CLOUD_EXCESS;
}

/**
 * Whether the sun of the blob the clear sky points to replaces the sun found: when it is the
 * better one and lies farther from it than two spots of one object. Nearer, it is the same
 * sun, placed from a part of its glow that the candidates' blob holds less closely.
 */
function elsewhere(sun: DetectedSun, found: DetectedSun): boolean {
  return !sameObject(sun, found) && better(sun, found);
}

/** Whether two suns are closer than two spots of one object (sun-candidates.ts). */
function sameObject(a: DetectedSun, b: DetectedSun): boolean {
  const cos = a.direction[0] * b.direction[0] + a.direction[1] * b.direction[1] + a.direction[2] * b.direction[2];
  return cos >= Math.cos(SEPARATION_DEG * DEG);
}

/**
 * Measured suns beat estimated ones; among measured ones, the brighter; among estimated
 * ones, the more confident: the better fitted, with less air between it and the ground.
 * The air mass says how far to trust the energy more than where the sun is, yet it settles
 * a low sun against a clipped spot of horizon well below it that fits the sky as well: the
 * spot's thicker air makes it the less confident.
 */
function better(a: DetectedSun, b: DetectedSun): boolean {
  if (a.source !== b.source) return a.source === "measured";
  return a.source === "measured" ? a.illuminance > b.illuminance : a.confidence > b.confidence;
}

/** The irradiance a sun at `elevation` must cast, given the sky's (its own share left out). */
function needed(sun: DetectedSun, scan: SkyScan, minShare: number, illuminance: number): number {
  const up = Math.max(0, Math.sin(sun.elevation));
  const sky = Math.max(0, scan.skyIrradiance - illuminance * up);
  return minShare * (1 + 1.25 * up) * sky;
}

function measured(spot: MeasuredSpot, scan: SkyScan, minShare: number, evidence: (sun: DetectedSun) => number): DetectedSun | null {
  const sun = spot.sun;
  if (spot.peak < LOCAL_CONTRAST * spot.sky) return null;
  const need = needed(sun, scan, minShare, sun.illuminance);
  // A disk that casts less than its share is still the sun where the whole sky is lit by one there: a disk
  // dimmed by haze, or by lossy compression of its pixels.
  if (sun.illuminance <= need) return evidence(sun) >= STRONG_EVIDENCE ? { ...sun, confidence: round(sun.illuminance / need / 2) } : null;
  // Half confident at the threshold, fully at twice it.
  const confidence = need > 0 ? Math.min(1, 0.5 * (sun.illuminance / need)) : 1;
  return { ...sun, confidence: round(confidence) };
}

/** Whether a clipped spot is no larger than a clipped disk: its own pixels place the sun. */
function compact(image: HdrPixels, spot: MeasuredSpot): boolean {
  return spot.sun.solidAngle <= clippedDiskSolidAngle(image.width);
}

function estimated(image: HdrPixels, spot: MeasuredSpot, scan: Scan, minShare: number): DetectedSun | null {
  if (spot.peak < CLIPPED_CONTRAST * spot.sky) return null;
  return fromFit(image, spot.sun, scan, minShare, spot.visible);
}

/**
 * A sun in the saturated blob around a candidate at the clip level (saturated-blob.ts),
 * where the sky around the sun clips too: it holds none of the sun's own light beyond its
 * sky's, so its disk is empty. With `byDiskOnly`, only a sun its disk's own pixels place
 * (`byDisk`).
 */
function fromBlob(
  image: HdrPixels,
  candidate: SunCandidate,
  scan: Scan,
  minShare: number,
  seen: FloodedBlobs,
  cost: (direction: readonly number[]) => number,
  byDiskOnly: boolean,
): DetectedSun | null | TooWide {
  const blob = placeInBlob(image, indexOf(candidate, image), scan.top, cost, seen);
  if (!blob || (byDiskOnly && !blob.byDisk)) return null;
  const sun = blobsSun(image, blob, scan, minShare);
  return sun && !blob.byDisk && Math.sqrt(blob.solidAngle / Math.PI) > PLACE_WITHIN ? { tooWide: sun } : sun;
}

/** The sun placed in a saturated blob, when the sky around it is a clear one lit by it. */
function blobsSun(image: HdrPixels, blob: SaturatedBlob, scan: Scan, minShare: number): DetectedSun | null {
  // The edge of a blob larger than a disk is where the sky reaches the clip level: the clear sky fitted around it
  // must come close to it there. A disk clips by its own light.
  const placed = blobSun(blob.direction, blob.solidAngle);
  const reaches = (fit: SkyFit) => blob.isDisk || CLIP_REACH * fittedLuminance(fit, Math.PI / 2 - placed.elevation, blob.rim) >= scan.top;
  return fromFit(image, placed, scan, minShare, blob.visible, reaches);
}

/** An estimated sun in `direction`, placed in a blob of `solidAngle`, its energy yet to be fitted. */
function blobSun(direction: [number, number, number], solidAngle: number): DetectedSun {
  const [x, y, z] = direction;
  return {
    direction,
    azimuth: azimuthOfU(uOfDirection(x, z)),
    elevation: elevationOfV(vOfDirection(y)),
    color: [1, 1, 1],
    intensity: 0,
    illuminance: 0,
    solidAngle,
    source: "estimated",
    confidence: 0,
    turbidity: null,
    disk: { sky: [0, 0, 0], pixels: [] },
  };
}

/** The sun's irradiance from the clear sky fitted around it, when that sky is a clear one. */
function fromFit(
  image: HdrPixels,
  sun: DetectedSun,
  scan: Scan,
  minShare: number,
  visible: number,
  consistent: (fit: SkyFit) => boolean = () => true,
): DetectedSun | null {
  // The sky's colour first: a sky that is not a clear one is not worth fitting.
  const view = viewSky(scan.sky(), sun.direction);
  if (!view || !clear(scan.tint(), aureoleBlueness(view), sun.elevation)) return null;
  const fit = fitSky(view);
  if (fit.residual > MAX_RESIDUAL || !consistent(fit)) return null;
  // The sky's sun must cast its share whole (a ridge or trees in front of its disk hide a part of what it casts
  // here), against the sky without the clipped disk the picture holds of it.
  const whole = luminanceOf(fit.irradiance);
  if (whole <= needed(sun, scan, minShare, sun.illuminance)) return null;
  const irradiance = fit.irradiance.map((v) => v * visible) as [number, number, number];
  const illuminance = whole * visible;
  if (!(illuminance > sun.illuminance) || scan.skyIrradiance < MIN_SKY_IRRADIANCE) return null;
  const intensity = Math.max(...irradiance);
  // Trust falls with the residual and with the air mass the assumed clear path crosses.
  const confidence = (1 - fit.residual / MAX_RESIDUAL) / Math.sqrt(airMass(Math.PI / 2 - sun.elevation));
  return {
    ...sun,
    color: [irradiance[0] / intensity, irradiance[1] / intensity, irradiance[2] / intensity],
    intensity,
    illuminance,
    source: "estimated",
    confidence: round(confidence),
    turbidity: fit.turbidity,
  };
}

/**
 * Whether a sky's colours are a clear sky's, for a sun at `elevation`: blue above (or,
 * with the sun low, red along the horizon), and around the sun about as blue as Rayleigh
 * scattering of its light makes it.
 */
function clear(tint: SkyTint, aureole: number | null, elevation: number): boolean {
  const rayleigh = rayleighBlueness(Math.PI / 2 - elevation);
  const blue = tint.blueness >= Math.max(MIN_BLUENESS, CLEAR_BLUENESS * rayleigh);
  if (!blue && !redHorizon(tint)) return false;
  return aureole === null || aureole >= Math.min(AUREOLE_BLUENESS, rayleigh - AUREOLE_MARGIN);
}

/** Whether a sky's tint lets a sun anywhere pass `clear`: blue enough for the lowest sun, or red along the horizon. */
function mayBeClear(tint: SkyTint): boolean {
  return tint.blueness >= MIN_BLUENESS || redHorizon(tint);
}

function redHorizon(tint: SkyTint): boolean {
  return tint.horizonBlueness !== null && tint.horizonBlueness <= RED_HORIZON;
}

const round = (v: number) => Math.round(Math.max(0, Math.min(1, v)) * 1000) / 1000;
