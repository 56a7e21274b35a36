/**
 * Local skies with ground truth for the sun detection: rendered by the local service at
 * 1024 x 512 (its radiance.hdr is what a 1K `hdri-hdr` export of it holds), each with its
 * scene.json (the sun's direction and the irradiance its HDR disk carries). Every time of
 * day and weather, Model 3 and Model 4 (standard, enhanced, several looks), plus suns at
 * 1-2, 6-10 and 80-88 degrees that prompts never or seldom place (a prompt's scene with the
 * sun moved, rendered through remix). `clipped` gives the same pixels as an HDRI made from an 8-bit
 * image would hold them: clipped at 1.0 (display white) or 16.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Look, RenderRequest } from "../../../src/local/imagery/contract.ts";
import type { ImageryPool } from "../../../src/local/imagery/pipeline/render-pool.ts";
import { sceneFromPrompt } from "../../../src/local/imagery/prompt/prompt-scene.ts";
import type { SceneSpec } from "../../../src/local/imagery/scene/scene-spec.ts";
import { prepareSky } from "../../../src/local/imagery/scene/sky/sky.ts";
import { directionOfDegrees } from "../../../src/api/panorama/panorama-directions.ts";
import type { DetectedSun } from "../../../src/scene/analysis/detect-sun.ts";
import { decodeHdr, type HdrPixels } from "../../../src/scene/analysis/hdr-pixels.ts";
import { degreesBetween } from "./angles.ts";

export interface CorpusSky {
  prompt: string;
  seed: number;
  model: 3 | 4;
  variant?: "standard" | "enhanced";
  look?: Look;
  /** Sun elevation (degrees) to render instead of the prompt's. */
  elevation?: number;
}

/** What a sky's truth says the detector must do with it. */
export type Expectation = "sun" | "none" | "either";

export interface RenderedSky {
  sky: CorpusSky;
  scene: SceneSpec;
  pixels: HdrPixels;
  expect: Expectation;
  /** Group of the bench's table. */
  group: string;
}

const CLEAR = [
  "clear desert at noon",
  "clear desert dunes at sunset",
  "mountains at sunrise, clear sky",
  "clear sky over a forest at dawn",
  "clear morning over rolling hills",
  "clear afternoon over a canyon",
  "ocean beach at sunset, clear sky",
  "snowy mountains at noon, clear sky",
  "lake at golden hour, clear sky",
  "city skyline at sunset, clear sky",
  "clear sky over the sea at midday",
  "arctic tundra in the morning, clear",
  "savanna in the afternoon, clear sky",
  "clear dawn over a lake",
];
const CLOUDY = [
  "cloudy afternoon over the hills",
  "partly cloudy noon over the ocean",
  "fluffy clouds at sunset over the mountains",
  "cirrus morning over the desert",
];
const NIGHT = [
  "moonlit night over the hills",
  "starry night over a lake, full moon",
  "city skyline at night",
  "night over snowy mountains, moonlight",
  "aurora over a frozen lake",
  "dusk over the ocean",
  "blue hour over the city",
];
const OVERCAST = [
  "overcast day over the hills",
  "rainy afternoon in the forest",
  "grey sky over the sea at noon",
  "gloomy morning in the mountains",
];
const STORM = [
  "stormy sea at noon",
  "thunderstorm over the prairie",
  "dramatic sky over the mountains at sunset",
  "storm over the desert in the afternoon",
];
const FOG = ["foggy forest at dawn", "misty lake in the morning", "hazy noon over the city", "fog over the hills at sunset"];
/** Suns the prompts place seldom or never: [prompt whose scene is used, elevation, Model 4's look (photoreal unless named)]. */
const MOVED: [string, number, Look?][] = [
  ["clear desert dunes at sunset", 1.2],
  ["ocean beach at sunset, clear sky", 1.6],
  ["clear sky over the sea at midday", 80],
  ["clear desert at noon", 88],
  // Morning and evening suns 6 to 10 degrees up, clear and in fog: the prompts place few there (their dawns and
  // sunsets lie 1 to 6 degrees up, their mornings 20 or more), and an 8-bit picture of such a sky is common.
  ["clear sky over a forest at dawn", 7, "painterly"],
  ["ocean beach at sunset, clear sky", 9, "digital-art"],
  ["mountains at sunrise, clear sky", 10, "anime"],
  ["fog over the hills at sunset", 6, "digital-art"],
  ["foggy forest at dawn", 8, "painterly"],
];
const LOOKS: Look[] = ["photoreal", "anime", "digital-art", "painterly"];

/**
 * Seed sets of the corpus: the first tuned the detector's thresholds; the second was held out
 * while the first was tuned and has been looked at since; the third and fourth were first
 * run in a later session (the night sky's floor came from them); the next four were held out
 * until the red and green fit of a saturated blob was chosen on all eight, and the four after
 * them until their misses showed the terrain in that fit; the next four were held out until
 * the detector froze, and their misses have been looked at since (no threshold came of it);
 * the last four were rendered after that and are held out.
 */
export const SEED_SETS = [
  { name: "seeds 1-4 (tuning)", offset: 0 },
  { name: "seeds 101-104 (held out, then seen)", offset: 100 },
  { name: "seeds 201-204 (seen)", offset: 200 },
  { name: "seeds 301-304 (seen)", offset: 300 },
  { name: "seeds 401-404 (held out, then seen)", offset: 400 },
  { name: "seeds 501-504 (held out, then seen)", offset: 500 },
  { name: "seeds 601-604 (held out, then seen)", offset: 600 },
  { name: "seeds 701-704 (held out, then seen)", offset: 700 },
  { name: "seeds 801-804 (held out, then seen)", offset: 800 },
  { name: "seeds 901-904 (held out, then seen)", offset: 900 },
  { name: "seeds 1001-1004 (held out, then seen)", offset: 1000 },
  { name: "seeds 1101-1104 (held out, then seen)", offset: 1100 },
  { name: "seeds 1201-1204 (held out, misses seen)", offset: 1200 },
  { name: "seeds 1301-1304 (held out, misses seen)", offset: 1300 },
  { name: "seeds 1401-1404 (held out, misses seen)", offset: 1400 },
  { name: "seeds 1501-1504 (held out, misses seen)", offset: 1500 },
  { name: "seeds 1601-1604 (held out)", offset: 1600 },
  { name: "seeds 1701-1704 (held out)", offset: 1700 },
  { name: "seeds 1801-1804 (held out)", offset: 1800 },
  { name: "seeds 1901-1904 (held out)", offset: 1900 },
] as const;

/**
 * The whole corpus: every prompt with Model 3 (seed 1) and Model 4 (seed 2, a look in turn),
 * and the moved suns (seeds 3 and 4); `offset` is added to every seed (another draw of the
 * same prompts: scenes, suns and terrain differ).
 */
export function corpusSkies(offset = 0): CorpusSky[] {
  const prompts = [...CLEAR, ...CLOUDY, ...NIGHT, ...OVERCAST, ...STORM, ...FOG];
  const out: CorpusSky[] = [];
  prompts.forEach((prompt, i) => {
    out.push({ prompt, seed: 1 + offset, model: 3 });
    out.push({ prompt, seed: 2 + offset, model: 4, variant: i % 3 === 0 ? "enhanced" : "standard", look: LOOKS[i % LOOKS.length] });
  });
  for (const [prompt, elevation, look] of MOVED) {
    out.push({ prompt, seed: 3 + offset, model: 3, elevation });
    out.push({ prompt, seed: 4 + offset, model: 4, variant: "standard", elevation, ...(look ? { look } : {}) });
  }
  return out;
}

const SIZE = { width: 1024, height: 512 };

function request(sky: CorpusSky, prompt = sky.prompt): RenderRequest {
  return {
    prompt,
    negativeText: null,
    enhancePrompt: false,
    seed: sky.seed,
    look: sky.look ?? "photoreal",
    model: sky.model,
    variant: sky.model === 4 ? (sky.variant ?? "standard") : null,
    softLines: false,
    size: SIZE,
    thumbSize: { width: 128, height: 64 },
    depthSize: { width: 128, height: 64 },
  };
}

/** Renders one sky into `dir` and reads it back with its truth. */
export async function renderSky(pool: ImageryPool, sky: CorpusSky, dir: string): Promise<RenderedSky> {
  let req = request(sky);
  if (sky.elevation !== undefined) {
    // The prompt's scene with the sun moved, rendered as a remix of it (a prompt naming no time keeps the lights).
    const scene = sceneFromPrompt(req);
    scene.sun = { ...scene.sun, elevation: sky.elevation };
    const base = join(dir, "base");
    mkdirSync(base, { recursive: true });
    writeFileSync(join(base, "scene.json"), JSON.stringify(scene));
    req = { ...request(sky, groundWords(sky.prompt)), remixFrom: base };
  }
  await pool.generate(req, dir);
  const rendered = readSky(sky, dir);
  if (sky.elevation !== undefined && Math.abs(rendered.scene.sun.elevation - sky.elevation) > 1e-9)
    throw new Error(`remix did not keep the sun of ${sky.prompt}`);
  return rendered;
}

/** A sky rendered into `dir` before, with its truth. */
export function readSky(sky: CorpusSky, dir: string): RenderedSky {
  const scene = JSON.parse(readFileSync(join(dir, "scene.json"), "utf8")) as SceneSpec;
  const pixels = decodeHdr(new Uint8Array(readFileSync(join(dir, "radiance.hdr"))));
  return { sky, scene, pixels, ...truth(scene) };
}

/** A prompt without its words of time and weather (so a remix keeps the scene's). */
function groundWords(prompt: string): string {
  return prompt
    .replace(/\b(clear sky|clear|at sunset|at noon|at dawn|at sunrise|midday|sunset|noon|dawn|sunrise)\b/g, "")
    .replace(/[ ,]+/g, " ")
    .trim();
}

/**
 * What the picture shows of the sun decides what the detector must say, the same way for
 * every weather: `visible` is the irradiance the HDR disk carries (scene.json, after the
 * terrain, clouds and fog in front of it) over the sun a clear sky of the same scene would
 * show.
 * - At least half of it in a clear sky: a sun that lights the scene, to be found.
 * - Under overcast, storm or fog, less than a tenth: the weather hides it, no sun (the
 *   issue's "0 suns"); at least half (a gap in storm clouds, thin haze): the picture shows
 *   a sun the rule did not mean, either answer counts.
 * - Between, a cloudy sky, or a clear sky's sun mostly behind a ridge or cirrus: either.
 * "Either" groups count no recall and no false sun; the bench shows how many got a sun.
 */
function truth(scene: SceneSpec): { expect: Expectation; group: string } {
  const visible = luminance(scene.sun.irradiance ?? [0, 0, 0]) / clearSkySun(scene);
  if (scene.time === "night" || scene.sun.elevation <= 0) return { expect: "none", group: "night, dusk" };
  if (!(visible > 0)) return { expect: "none", group: "sun hidden (terrain, clouds)" };
  const hiding = scene.weather === "overcast" || scene.weather === "storm" || scene.weather === "fog";
  if (hiding && visible < 0.1) return { expect: "none", group: scene.weather };
  if (hiding && visible >= 0.5) return { expect: "either", group: "storm gap, haze (sun >= 50% of clear)" };
  if (scene.weather === "cloudy") return { expect: "either", group: "cloudy" };
  if (visible < 0.5) return { expect: "either", group: "sun 10-50% of clear, or partly hidden" };
  if (scene.sun.elevation < 8)
    return { expect: "sun", group: scene.sun.elevation < 2 ? "clear, sun 1-2 deg" : "clear, sun 2-8 deg (sunrise, sunset)" };
  return { expect: "sun", group: scene.sun.elevation > 75 ? "clear, sun 75-90 deg" : "clear, sun 8-75 deg" };
}

/** Luminance of the renderer's direct sun for the scene's sun under a clear sky. */
function clearSkySun(scene: SceneSpec): number {
  return luminance(prepareSky({ ...scene, weather: "clear", fog: 0.05, clouds: null }).direct);
}

/** The pixels clipped at `limit` per channel (an HDRI made from an 8-bit picture). */
export function clipped(pixels: HdrPixels, limit: number): HdrPixels {
  return { width: pixels.width, height: pixels.height, rgb: pixels.rgb.map((v) => Math.min(v, limit)) };
}

/**
 * The pixels with every value moved by a seeded uniform share of at most `share` either way
 * (a renderer or encoder change of that size: RGBE alone rounds by up to 0.4%).
 */
export function perturbed(pixels: HdrPixels, share: number, seed: number): HdrPixels {
  // mulberry32: a small seeded generator, so a failure reproduces.
  let state = seed | 0;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { width: pixels.width, height: pixels.height, rgb: pixels.rgb.map((v) => v * (1 + share * (2 * next() - 1))) };
}

/** Rec. 709 luminance of an RGB triple. */
export function luminance(rgb: ArrayLike<number>): number {
  return 0.2126 * rgb[0]! + 0.7152 * rgb[1]! + 0.0722 * rgb[2]!;
}

/** How the detector did on one sky. */
export interface SkyScore {
  group: string;
  expect: Expectation;
  found: boolean;
  /** Degrees from the drawn sun (found suns of skies with one). */
  error: number | null;
  /** Detected over drawn irradiance (luminance), when both exist. */
  energy: number | null;
  estimated: boolean;
  prompt: string;
}

/** Scores `detect` on one sky's pixels (possibly clipped). */
export function scoreSky(sky: RenderedSky, pixels: HdrPixels, detect: (p: HdrPixels) => DetectedSun | null): SkyScore {
  const sun = detect(pixels);
  const truth = directionOfDegrees(sky.scene.sun.azimuth, sky.scene.sun.elevation);
  const drawn = luminance(sky.scene.sun.irradiance ?? [0, 0, 0]);
  return {
    group: sky.group,
    expect: sky.expect,
    found: sun !== null,
    error: sun && drawn > 0 ? degreesBetween(sun.direction, truth) : null,
    energy: sun && drawn > 0 ? sun.illuminance / drawn : null,
    estimated: sun?.source === "estimated",
    prompt: sky.sky.prompt,
  };
}

/** One line of the bench's table: a group of skies in one variant. */
export interface GroupFigures {
  group: string;
  skies: number;
  /** Suns expected, and found within 2 degrees. */
  expected: number;
  recalled: number;
  /** Suns reported where none should be. */
  falseSuns: number;
  medianError: number | null;
  maxError: number | null;
  /** Energy ratios of found suns: median, least, largest, and how many within 35% and 50%. */
  energy: number[];
  estimated: number;
  /** Skies where either answer counts, and how many of them got a sun. */
  either: number;
  found: number;
}

export function groupFigures(scores: SkyScore[]): GroupFigures[] {
  const groups = [...new Set(scores.map((s) => s.group))].sort();
  return groups.map((group) => {
    const of = scores.filter((s) => s.group === group);
    const errors = of.flatMap((s) => (s.error === null ? [] : [s.error])).sort((a, b) => a - b);
    return {
      group,
      skies: of.length,
      expected: of.filter((s) => s.expect === "sun").length,
      recalled: of.filter((s) => s.expect === "sun" && s.found && s.error !== null && s.error <= 2).length,
      falseSuns: of.filter((s) => s.expect === "none" && s.found).length,
      medianError: errors.length ? errors[errors.length >> 1]! : null,
      maxError: errors.length ? errors[errors.length - 1]! : null,
      energy: of.flatMap((s) => (s.energy === null || s.expect === "none" ? [] : [s.energy])).sort((a, b) => a - b),
      estimated: of.filter((s) => s.estimated).length,
      either: of.filter((s) => s.expect === "either").length,
      found: of.filter((s) => s.expect === "either" && s.found).length,
    };
  });
}
