/**
 * The real-picture corpus of the sun detection: photographed CC0 HDRIs (Poly Haven's, as
 * @pmndrs/assets ships them at 512 x 256; test/fixtures/real-skies/README.md), each with
 * what it shows of the sun, and the 8-bit pictures the real service delivers made from them.
 *
 * What a picture shows is said by eye, once, in `REAL_SKIES`: a sun disk in the open sky
 * ("sun"); its glow with the disk hidden by cloud, trees, terrain or the horizon ("glow":
 * a sun found there must lie near the glow, none is also right); or no sun to light a scene
 * with ("none": interiors and studios, whose lamps, windows and skylights are not suns,
 * night, overcast). Where the sun or its glow is, and the sun's energy, are measured from
 * the picture's own unclipped pixels (`truthOf`).
 *
 * Variants: the picture as shipped (float), and 8-bit exports as an AI panorama arrives:
 * exposed by a camera's rule, clipped at 1.0, sRGB-encoded, rounded to 8 bits and decoded
 * back to linear (what an HDR or EXR export made from the JPEG holds). Two rules: median
 * metering (the panorama's median luminance at middle grey, 0.18) and highlight keeping
 * (its 99th percentile of luminance at 1.0: the sky keeps its gradations, the sun clips).
 * The exports are made from the picture as the camera recorded it (`undamaged`): lossy
 * compression of the files zeroed channels of some suns' disks, which a real disk never has.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { directionOfUv } from "../../../src/api/panorama/panorama-directions.ts";
import type { DetectedSun } from "../../../src/scene/analysis/detect-sun.ts";
import { decodeHdr, type HdrPixels } from "../../../src/scene/analysis/hdr-pixels.ts";
import { degreesBetween } from "./angles.ts";

export type Shows = "sun" | "glow" | "none";

export interface RealSky {
  name: string;
  shows: Shows;
  /** Held out: never looked at while the detector was built; reported apart. */
  heldOut: boolean;
  /** What the picture is, in words. */
  what: string;
  /**
   * Why the disk's energy is no truth, when it is not: lossy DWAB compression zeroed the red
   * and green of some suns' pixels, leaving a blue disk that holds a small part of the
   * sun's light (its direction is kept). A sun estimated from the sky is not judged by it.
   */
  noEnergy?: string;
}

const BLUE_DISK = "DWAB zeroed the disk's red and green";

export const REAL_SKIES: RealSky[] = [
  { name: "park", shows: "sun", heldOut: false, what: "a park, clear sky, sun 10 degrees up", noEnergy: BLUE_DISK },
  { name: "sky", shows: "sun", heldOut: false, what: "cumulus over water, sun 48 degrees up" },
  { name: "sunset", shows: "sun", heldOut: false, what: "a piazza, clear sunset over the lagoon" },
  { name: "sunrise", shows: "sun", heldOut: true, what: "a field, clear sunrise through mist", noEnergy: BLUE_DISK },
  { name: "dawn", shows: "glow", heldOut: false, what: "rocks at dawn, the sun's glow on the horizon" },
  { name: "forest", shows: "glow", heldOut: false, what: "a pine forest, the sun behind the trees" },
  { name: "venice", shows: "glow", heldOut: true, what: "a waterfront at dawn, the sun behind thin cloud" },
  { name: "apartment", shows: "none", heldOut: false, what: "an empty room, a sunlit window" },
  { name: "bridge", shows: "none", heldOut: false, what: "a covered footbridge" },
  { name: "city", shows: "none", heldOut: false, what: "a city square under overcast" },
  { name: "esplanade", shows: "none", heldOut: false, what: "a shopping hall, the sun through a skylight" },
  { name: "hall", shows: "none", heldOut: false, what: "a ballroom with chandeliers" },
  { name: "lab", shows: "none", heldOut: false, what: "a laboratory, windows" },
  { name: "studio", shows: "none", heldOut: false, what: "a photo studio, softboxes" },
  { name: "lobby", shows: "none", heldOut: true, what: "a lobby, ceiling lamps" },
  { name: "night", shows: "none", heldOut: true, what: "savanna at night, stars and the last glow" },
  { name: "warehouse", shows: "none", heldOut: true, what: "an empty warehouse, strip lights" },
  { name: "workshop", shows: "none", heldOut: true, what: "a workshop, lamps and windows" },
];

const DIR = join(import.meta.dirname, "../../fixtures/real-skies");

/** A corpus picture as shipped. */
export function readRealSky(name: string): HdrPixels {
  return decodeHdr(new Uint8Array(readFileSync(join(DIR, `${name}.hdr`))));
}

/** Where the sun (or its glow) is, and the sun's energy, from the unclipped pixels. */
export interface RealTruth {
  direction: [number, number, number];
  /** Luminance irradiance of the sun's disk over the sky behind it (suns only, else null). */
  illuminance: number | null;
}

const DEG = Math.PI / 180;
/** The disk's window (a 512-wide pixel is 0.7 degrees; DWAB rings a few pixels around the sun). */
const DISK_RADIUS = 4 * DEG;
/** The sky behind the disk: a ring around the window. */
const RING = 8 * DEG;

/**
 * The truth of a picture: the brightest pixel above the horizon (its sun or its glow); for
 * a sun, the centroid of its excess over the sky ring around it, and that excess's
 * irradiance summed over the window (signed: compression's ringing around the disk cancels).
 */
export function truthOf(image: HdrPixels, shows: Shows): RealTruth | null {
  if (shows === "none") return null;
  const { width, height, rgb } = image;
  let peak = 0;
  let at = 0;
  for (let i = 0; i < (width * height) / 2; i++) {
    const l = lum(rgb, i);
    if (l > peak) [peak, at] = [l, i];
  }
  const centre = pixelDirection(at % width, Math.floor(at / width), width, height);
  if (shows === "glow") return { direction: centre, illuminance: null };
  const ring: number[] = [];
  const disk: { d: [number, number, number]; l: number; omega: number }[] = [];
  for (let y = 0; y < height / 2; y++) {
    const omega = ((2 * Math.PI) / width) * (Math.PI / height) * Math.cos((0.5 - (y + 0.5) / height) * Math.PI);
    for (let x = 0; x < width; x++) {
      const d = pixelDirection(x, y, width, height);
      const gamma = Math.acos(Math.min(1, d[0] * centre[0] + d[1] * centre[1] + d[2] * centre[2]));
      if (gamma < DISK_RADIUS) disk.push({ d, l: lum(rgb, y * width + x), omega });
      else if (gamma < RING) ring.push(lum(rgb, y * width + x));
    }
  }
  const sky = median(ring);
  const sum: [number, number, number] = [0, 0, 0];
  let illuminance = 0;
  for (const p of disk) {
    illuminance += (p.l - sky) * p.omega;
    const w = Math.max(0, p.l - sky) * p.omega;
    for (let c = 0; c < 3; c++) sum[c]! += w * p.d[c]!;
  }
  const n = Math.hypot(sum[0], sum[1], sum[2]);
  return { direction: [sum[0] / n, sum[1] / n, sum[2] / n], illuminance };
}

/** The sun's disk (0.53 degrees across) as a 512-wide picture holds it: its pixels within this of the truth's sun. */
const CORE_RADIUS = 1.5 * DEG;
/**
 * How far from a sun DWAB's damage reaches: the sun's pixels and their neighbours in its
 * block of the file, whose ringing it clamped to 0 (a channel is zeroed in pixels up to 2.9
 * degrees from the suns of the corpus, none farther within 6 degrees).
 */
const DAMAGE_RADIUS = 3 * DEG;
/** Width of the ring just beyond DAMAGE_RADIUS whose sky stands in for the damaged aureole. */
const RING_WIDTH = 1 * DEG;

/**
 * How many pixels within DAMAGE_RADIUS of a picture's sun have a channel at 0: lossy DWAB
 * compression's doing, in the disk and the aureole around it. A real disk and its aureole
 * outshine their sky in every channel, so an 8-bit export clips them white; pixels whose
 * channels were zeroed cannot clip at all, and show in the export as a dark hole or ring in
 * the sun's clipped glow, which no picture a user exports holds.
 */
export function zeroedAround(image: HdrPixels, truth: RealTruth): number {
  return pixelsWithin(image, truth, 0, DAMAGE_RADIUS).filter((o) => isZeroed(image.rgb, o)).length;
}

/**
 * The picture as the camera recorded it, for the 8-bit exports made from it (`truth` a
 * sun's; null leaves the picture as it is). Each pixel DWAB zeroed a channel of takes, in
 * every channel:
 * - in the disk (CORE_RADIUS), the brightest value of the disk's pixels in any channel:
 *   brighter than any exposure's clip level, as the disk is, it clips white;
 * - in the aureole around it (to DAMAGE_RADIUS), the median of the ring of undamaged sky
 *   just beyond, per channel: the aureole is at least that bright, as it falls off outwards.
 */
function undamaged(image: HdrPixels, truth: RealTruth | null): HdrPixels {
  if (truth?.illuminance == null) return image;
  const disk = pixelsWithin(image, truth, 0, CORE_RADIUS);
  const ring = pixelsWithin(image, truth, DAMAGE_RADIUS, DAMAGE_RADIUS + RING_WIDTH).filter((o) => !isZeroed(image.rgb, o));
  const aureole = [0, 1, 2].map((c) => median(ring.map((o) => image.rgb[o + c]!)));
  const rgb = image.rgb.slice();
  const peak = Math.max(...disk.flatMap((o) => [image.rgb[o]!, image.rgb[o + 1]!, image.rgb[o + 2]!]));
  for (const o of disk) if (isZeroed(image.rgb, o)) rgb.fill(peak, o, o + 3);
  for (const o of pixelsWithin(image, truth, CORE_RADIUS, DAMAGE_RADIUS)) {
    if (isZeroed(image.rgb, o)) rgb.set(aureole, o);
  }
  return { ...image, rgb };
}

/** Offsets (pixel index * 3) of the pixels at least `from` and less than `to` from the truth's sun. */
function pixelsWithin(image: HdrPixels, truth: RealTruth, from: number, to: number): number[] {
  const { width, height } = image;
  const [near, far] = [Math.cos(from), Math.cos(to)];
  const out: number[] = [];
  for (let y = 0; y < height / 2; y++) {
    for (let x = 0; x < width; x++) {
      const d = pixelDirection(x, y, width, height);
      const cos = d[0] * truth.direction[0] + d[1] * truth.direction[1] + d[2] * truth.direction[2];
      if (cos > far && cos <= near) out.push((y * width + x) * 3);
    }
  }
  return out;
}

const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1]!;

const isZeroed = (rgb: Float32Array, o: number) => Math.min(rgb[o]!, rgb[o + 1]!, rgb[o + 2]!) === 0;

function pixelDirection(x: number, y: number, width: number, height: number): [number, number, number] {
  const d: [number, number, number] = [0, 0, 0];
  directionOfUv((x + 0.5) / width, (y + 0.5) / height, d);
  return d;
}

const lum = (rgb: Float32Array, i: number) => 0.2126 * rgb[i * 3]! + 0.7152 * rgb[i * 3 + 1]! + 0.0722 * rgb[i * 3 + 2]!;

export type RealVariant = "as shipped" | "8-bit, median metered" | "8-bit, highlights kept";
export const REAL_VARIANTS: RealVariant[] = ["as shipped", "8-bit, median metered", "8-bit, highlights kept"];

/** The picture in a variant, and the exposure that variant applied (1 as shipped). */
export function realVariant(image: HdrPixels, variant: RealVariant, truth: RealTruth | null): { pixels: HdrPixels; exposure: number } {
  if (variant === "as shipped") return { pixels: image, exposure: 1 };
  image = undamaged(image, truth);
  const l = Array.from({ length: image.width * image.height }, (_, i) => lum(image.rgb, i)).sort((a, b) => a - b);
  const exposure = variant === "8-bit, median metered" ? 0.18 / l[l.length >> 1]! : 1 / l[Math.floor(l.length * 0.99)]!;
  return { pixels: eightBit(image, exposure), exposure };
}

/** `image` times `exposure`, clipped at 1, sRGB-encoded in 8 bits, decoded back to linear. */
export function eightBit(image: HdrPixels, exposure: number): HdrPixels {
  const decode = Array.from({ length: 256 }, (_, b) => {
    const v = b / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  const rgb = image.rgb.map((value) => {
    const v = Math.min(1, Math.max(0, value * exposure));
    const s = v <= 0.0031308 ? 12.92 * v : 1.055 * v ** (1 / 2.4) - 0.055;
    return decode[Math.round(s * 255)]!;
  });
  return { width: image.width, height: image.height, rgb };
}

/** `image` resampled to `width` x `width / 2` (nearest pixel: an 8-bit export's values stay its own). */
export function resampledReal(image: HdrPixels, width: number): HdrPixels {
  const height = width / 2;
  const rgb = new Float32Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    const from = Math.floor((y * image.height) / height) * image.width;
    for (let x = 0; x < width; x++) {
      const i = (from + Math.floor((x * image.width) / width)) * 3;
      const o = (y * width + x) * 3;
      rgb[o] = image.rgb[i]!;
      rgb[o + 1] = image.rgb[i + 1]!;
      rgb[o + 2] = image.rgb[i + 2]!;
    }
  }
  return { width, height, rgb };
}

/** How the detector did on one (picture, variant). */
export interface RealScore {
  sky: RealSky;
  variant: RealVariant;
  found: DetectedSun | null;
  /** Degrees from the truth's sun or glow (found suns of pictures with either). */
  error: number | null;
  /** Found over true irradiance at the variant's exposure (suns only). */
  energy: number | null;
  /** Right: no sun where none shows; near its glow or none; a sun placed within WITHIN_DEG with its energy. */
  ok: boolean;
  /** Harmful: a sun where none shows, or farther than NEVER_BEYOND_DEG from the one that does. */
  wrong: boolean;
}

/** Direction within this of the truth: as shipped, and in an 8-bit export. */
export const WITHIN_DEG = { shipped: 2, eightBit: 3 } as const;
/** A sun or glow picture's sun, found, is never farther than this from the truth. */
export const NEVER_BEYOND_DEG = 5;
/** A found sun's energy within this share of the picture's own disk at the variant's exposure. */
export const ENERGY_WITHIN = 0.5;

export function scoreReal(
  sky: RealSky,
  variant: RealVariant,
  detect: (p: HdrPixels) => DetectedSun | null,
  image = readRealSky(sky.name),
): RealScore {
  const truth = truthOf(image, sky.shows);
  const { pixels, exposure } = realVariant(image, variant, truth);
  const found = detect(pixels);
  const error = found && truth ? degreesBetween(found.direction, truth.direction) : null;
  const energy = found && truth?.illuminance && !sky.noEnergy ? found.illuminance / (truth.illuminance * exposure) : null;
  const within = variant === "as shipped" ? WITHIN_DEG.shipped : WITHIN_DEG.eightBit;
  const placed = error !== null && error <= within && (energy === null || Math.abs(energy - 1) <= ENERGY_WITHIN);
  const ok = sky.shows === "none" ? !found : sky.shows === "glow" ? error === null || error <= NEVER_BEYOND_DEG : placed;
  const wrong = sky.shows === "none" ? found !== null : error !== null && error > NEVER_BEYOND_DEG;
  return { sky, variant, found, error, energy, ok, wrong };
}
