/**
 * Finding the sun in an HDR panorama: the brightest compact spot above the horizon, far
 * brighter than the sky, with its direction, colour and the irradiance it casts. A pure
 * function of the pixels (no Babylon scene), fast enough for an 8K panorama: a strided scan
 * finds a few candidates (sun-candidates.ts), each is measured at full resolution in a
 * window of a few degrees (sun-measure.ts), and the one casting the most light wins.
 *
 * No sun is a valid answer: at night (the moon is far dimmer than `minRadiance`), under
 * overcast skies (no spot stands out of the sky), or when the sun is below the horizon.
 * Clouds lit by the sun, snow and the sun's reflection on water are not taken for it: the
 * last two lie below the horizon, and none is both compact and `minContrast` times brighter
 * than the sky on average.
 */
import { scanSky } from "./sun-candidates.ts";
import type { HdrPixels } from "./hdr-pixels.ts";
import { measureSpot } from "./sun-measure.ts";

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
}

/** Thresholds of `detectSun`. */
export interface DetectSunOptions {
  /**
   * Least luminance of the sun's brightest pixel. Display white is 1; the local service's
   * moon is 0.5 at most, its brightest stars and planets about 3, its sun 150 at noon and
   * 15 to 40 at sunset.
   * @default 5
   */
  minRadiance?: number;
  /**
   * Least ratio of the sun's brightest pixel to the sky's mean luminance: about 300 for a
   * clear noon, 100 at sunset, 20 to 35 for a sun glimpsed through overcast or storm clouds
   * (which casts no shadow worth a light).
   * @default 50
   */
  minContrast?: number;
}

/** Spots measured at most; the brightest is the sun unless it is not compact or too faint. */
const CANDIDATES = 3;

/**
 * Finds the sun in a decoded HDR panorama.
 * @param image linear RGB floats, top row first (`decodeHdr`)
 * @param options detection thresholds
 * @returns the sun, or null when none shows
 */
export function detectSun(image: HdrPixels, options: DetectSunOptions = {}): DetectedSun | null {
  const scan = scanSky(image, CANDIDATES);
  const least = Math.max(options.minRadiance ?? 5, (options.minContrast ?? 50) * scan.skyMean);
  let found: DetectedSun | null = null;
  for (const candidate of scan.candidates) {
    // Candidates come brightest first: once one is far too faint, so are the rest. (A
    // strided sample may miss a small disk's brightest pixel: the measure finds it.)
    if (candidate.luminance < least / 2) break;
    const spot = measureSpot(image, candidate, scan.stride);
    if (spot && spot.peak >= least && (!found || spot.sun.illuminance > found.illuminance)) found = spot.sun;
  }
  return found;
}
