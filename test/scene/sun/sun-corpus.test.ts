/**
 * The done-when figures of the sun detection on a small part of the corpus of local skies
 * (sun-corpus.ts; `npm run bench -- sun` runs all of it): clear skies from 1.2 to 88 degrees,
 * sunsets and sunrises against their glow, Model 3 and Model 4; night, overcast, storm and
 * fog that hides the sun. As rendered, and clipped at 16 as an 8-bit-derived HDRI holds it:
 * every sun found within 2 degrees of the drawn one, none where there is none, the
 * irradiance within 35% of scene.json's (within 50% when clipped, estimated from the sky).
 * Clipped at 1.0, where the sky around the sun clips too: all of them, energy within 50%, and no false sun. And
 * nights whose clipped moon looks like a clipped sun get none.
 */
import { describe, expect, it } from "vitest";
import { detectSun } from "../../../src/scene/sun/detect-sun.ts";
import type { HdrPixels } from "../../../src/scene/sun/hdr-pixels.ts";
import { renderPool, tempDir } from "../../local/imagery/render-fixtures.ts";
import { clipped, corpusSkies, type CorpusSky, groupFigures, perturbed, type RenderedSky, renderSky, scoreSky } from "./sun-corpus.ts";
import { degreesBetween } from "./sun-exports.ts";

const pool = renderPool();

const PART: [string, 3 | 4][] = [
  ["clear desert at noon", 3],
  ["clear desert dunes at sunset", 4],
  ["clear sky over a forest at dawn", 4],
  ["clear morning over rolling hills", 4],
  ["ocean beach at sunset, clear sky", 3],
  // Its clear sky is barely bluer (0.141) than the foggy dawn's below (0.128).
  ["lake at golden hour, clear sky", 3],
  ["moonlit night over the hills", 3],
  ["rainy afternoon in the forest", 3],
  ["stormy sea at noon", 3],
  ["foggy forest at dawn", 3],
  ["fog over the hills at sunset", 3],
];

async function renderPart(): Promise<RenderedSky[]> {
  const skies = corpusSkies();
  const chosen = [
    ...PART.map(([prompt, model]) => skies.find((s) => s.prompt === prompt && s.model === model && s.elevation === undefined)!),
    skies.find((s) => s.elevation === 1.2 && s.model === 3)!,
    skies.find((s) => s.elevation === 88 && s.model === 4)!,
  ];
  const out: RenderedSky[] = [];
  for (const sky of chosen) out.push(await renderSky(pool(), sky, tempDir("sun-corpus")));
  return out;
}

describe("detectSun on local skies with ground truth", () => {
  it("finds every drawn sun within 2 degrees with its energy, and none at night, under overcast, storm or fog", { timeout: 180_000 }, async () => {
    const skies = await renderPart();
    expect(skies.filter((s) => s.expect === "sun").length).toBeGreaterThanOrEqual(7);
    expect(skies.filter((s) => s.expect === "none").length).toBeGreaterThanOrEqual(5);
    for (const [limit, energy] of [[Infinity, 0.35], [16, 0.5]] as const) {
      const scores = skies.map((sky) => scoreSky(sky, limit === Infinity ? sky.pixels : clipped(sky.pixels, limit), (p) => detectSun(p)));
      const all = groupFigures(scores.map((s) => ({ ...s, group: "all" })))[0]!;
      const label = `clipped at ${limit}`;
      expect(all.recalled, label).toBe(all.expected);
      expect(all.falseSuns, label).toBe(0);
      for (const ratio of all.energy) expect(Math.abs(ratio - 1), label).toBeLessThan(energy);
      // Clipped, the energy is the sky's estimate; as rendered, the disk's own.
      expect(scores.filter((s) => s.estimated).length, label).toBe(limit === Infinity ? 0 : all.expected);
    }
    // Clipped at 1.0 the sky around the sun clips too: a sun is placed in its saturated blob
    // (saturated-blob.ts) or by its disk's outline (clipped-disk.ts), with its energy from the sky, and none is made up.
    const scores = skies.map((sky) => scoreSky(sky, clipped(sky.pixels, 1), (p) => detectSun(p)));
    const placed = scores.filter((s) => s.expect === "sun" && s.error !== null && s.error <= 2 && Math.abs(s.energy! - 1) < 0.5);
    expect(placed.length, "suns placed within 2 degrees, energy within 50%").toBe(scores.filter((s) => s.expect === "sun").length);
    expect(scores.filter((s) => s.expect === "none" && s.found), "false suns clipped at 1.0").toEqual([]);
  });

  it("clipped at 1.0: a sunset blob against a whiter spot higher up (its disk placing the sun under 1% noise), a sunset disk at its blob's foot, a noon sky clipped in blue all round, a canyon's blob, a disk half behind the forest at dawn, a sky-only HDRI", { timeout: 60_000 }, async () => {
    const skies = corpusSkies();
    const pick = (prompt: string, model: 3 | 4) => skies.find((s) => s.prompt === prompt && s.model === model && s.elevation === undefined)!;
    const error = (sky: RenderedSky, pixels = clipped(sky.pixels, 1)) => scoreSky(sky, pixels, (p) => detectSun(p)).error;
    // Among estimated suns the better fitted sky wins: a clipped spot 14 degrees up in the glow (a worse fit, a
    // larger confidence only for its shorter air mass) is not the sun.
    const sunset = await renderSky(pool(), pick("clear desert dunes at sunset", 4), tempDir("sun-corpus"));
    expect(error(sunset)).toBeLessThan(2);
    // Its disk clips in blue too inside a blob clipped in red and green: the sun is placed there, and stays within
    // half a degree when every value of the sky moves by up to 1% (the blob's rim moves, the disk does not).
    const placed = detectSun(clipped(sunset.pixels, 1))!;
    for (const seed of [1, 2, 3]) {
      const moved = detectSun(clipped(perturbed(sunset.pixels, 0.01, seed), 1));
      expect(moved, `noise seed ${seed}`).not.toBeNull();
      expect(degreesBetween(moved!.direction, placed.direction), `noise seed ${seed}`).toBeLessThan(0.5);
    }
    // A sunset 3 degrees up whose disk clips white at the foot of its blob, on the haze band below it (clipped in red
    // alone): the disk places the sun, 1% noise or not (the sky's fit alone put it 0.85 degrees high, and moved 1.3).
    const beach = await renderSky(pool(), pick("ocean beach at sunset, clear sky", 3), tempDir("sun-corpus"));
    for (const seed of [0, 1, 2, 3]) expect(error(beach, clipped(seed ? perturbed(beach.pixels, 0.01, seed) : beach.pixels, 1)), `noise seed ${seed}`).toBeLessThan(0.3);
    // A noon sky brighter than the clip level in blue: the clear sky is fitted to its pixels clipped in one channel.
    const sea = await renderSky(pool(), pick("clear sky over the sea at midday", 4), tempDir("sun-corpus"));
    expect(error(sea)).toBeLessThan(2);
    // A blob whose column has a neck between canyon walls: the sun is placed where the blob holds its disk. The anime
    // look's speckle leaves the blob whole round its column on a few rows only, 1.5 to 2.2 degrees under the sun: it is
    // placed 2.3 degrees low, which the bench counts a miss (fitted in green alone, 1.8).
    const canyon = await renderSky(pool(), pick("clear afternoon over a canyon", 4), tempDir("sun-corpus"));
    expect(error(canyon)).toBeLessThan(2.5);
    // Clipped at 16 its disk is a blob of its own (the anime look's flat sky makes the spot's measured size cross a
    // clipped disk's under a 1% change): it clips by its own light, so the sky need not reach the clip level at its edge.
    for (const seed of [1, 2, 3]) expect(error(canyon, clipped(perturbed(canyon.pixels, 0.01, seed), 16)), `noise seed ${seed}`).toBeLessThan(0.3);
    // A disk 2.7 degrees up at dawn, its lower half behind the forest: what shows of it (a few pixels on three rows)
    // lies above the sun. The circle its uncut rows outline places it, and its energy is the share of it that shows
    // (the sky's fit gives the whole sun: half as much again). Clipped at 16 too.
    const dawn = await renderSky(pool(), pick("clear sky over a forest at dawn", 3), tempDir("sun-corpus"));
    for (const limit of [1, 16]) {
      const score = scoreSky(dawn, clipped(dawn.pixels, limit), (p) => detectSun(p));
      expect(score.error, `clipped at ${limit}`).toBeLessThan(0.3);
      expect(Math.abs(score.energy! - 1), `clipped at ${limit}`).toBeLessThan(0.35);
    }
    // Its few clipped pixels are the disk whatever the noise: the sky's fall-off is checked at the disk, not on a grid of its rows.
    for (const seed of [1, 2, 3]) expect(error(dawn, clipped(perturbed(dawn.pixels, 0.01, seed), 1)), `noise seed ${seed}`).toBeLessThan(0.3);
    // Ground black throughout (a sky-only HDRI): the ground's light says nothing, the sun is found.
    const noon = await renderSky(pool(), pick("clear desert at noon", 3), tempDir("sun-corpus"));
    const skyOnly = clipped(noon.pixels, 1);
    skyOnly.rgb.fill(0, Math.ceil(skyOnly.height / 2) * skyOnly.width * 3);
    expect(error(noon, skyOnly)).toBeLessThan(2);
  });

  it("clipped at 1.0: a sun placed from how its sky falls off in red as well as green", { timeout: 60_000 }, async () => {
    // Seed sets 200 and 300 (seen, not held out). Red clips last in a day sky, so its unclipped sky reaches nearest
    // the sun. Fitted in green alone, neither sun was found. The tundra's clipped horizon, 16 degrees below its sun,
    // fits the sky about as well as the sky around the disk: the more confident sun (less air in front of it) wins.
    for (const [offset, prompt, look] of [
      [200, "arctic tundra in the morning, clear", "painterly"],
      [300, "clear afternoon over a canyon", "anime"],
    ] as const) {
      const sky = await renderSky(pool(), corpusSkies(offset).find((s) => s.prompt === prompt && s.look === look)!, tempDir("sun-corpus"));
      const score = scoreSky(sky, clipped(sky.pixels, 1), (p) => detectSun(p));
      expect(score.error, prompt).toBeLessThan(2);
      expect(Math.abs(score.energy! - 1), prompt).toBeLessThan(0.5);
    }
  });

  it("clipped at 1.0: a low sun's disk placed where it touches, beside its glow's foot, haze that clips in one channel", { timeout: 60_000 }, async () => {
    // Seed set 1200 (its misses seen). A painterly dawn, the sun 3 degrees up: the glow clips in red and green down to
    // the sun's foot, the brushed haze beside and below the disk in red alone. The sky's fit alone puts the sun at the
    // glow's top, 3 degrees higher, where no disk shows: it was refused as a hidden sun's glow.
    const sky = await renderSky(pool(), corpusSkies(1200).find((s) => s.prompt === "clear sky over a forest at dawn" && s.look === "painterly")!, tempDir("sun-corpus"));
    const score = scoreSky(sky, clipped(sky.pixels, 1), (p) => detectSun(p));
    expect(score.error).toBeLessThan(0.5);
    expect(Math.abs(score.energy! - 1)).toBeLessThan(0.35);
  });

  it("clipped at 16 and 1.0: a golden-hour lake's sun, its upper sky too pale to pass for clear but its horizon red all round", { timeout: 60_000 }, async () => {
    // Seed set 1200 (seen). A Model 3 lake, the sun 2.5 degrees up: its sky 20 degrees up shows a blueness of 0.09,
    // under the 0.135 a foggy dawn is refused at; under 10 degrees up -0.69, where fog and overcast show -0.49 at most.
    const sky = await renderSky(pool(), corpusSkies(1200).find((s) => s.prompt === "lake at golden hour, clear sky" && s.model === 3)!, tempDir("sun-corpus"));
    for (const limit of [16, 1]) {
      const score = scoreSky(sky, clipped(sky.pixels, limit), (p) => detectSun(p));
      expect(score.error, `clipped at ${limit}`).toBeLessThan(0.5);
      expect(Math.abs(score.energy! - 1), `clipped at ${limit}`).toBeLessThan(0.35);
    }
  });

  it("clipped at 1.0: a dawn sun kept whose blob fits a clear sky a little worse than the best of the clipped sky", { timeout: 60_000 }, async () => {
    // Seed set 1000 (seen). A Model 3 forest at dawn, the sun 6 degrees up and placed by its disk: the Perez shape is
    // off the renderer's dawn sky by a few degrees, and its blob's cost exceeds the lattice's least by 0.0066. Refused
    // as a lit cloud at 0.0055, the excess set on the first renderer's skies.
    const sky = await renderSky(pool(), corpusSkies(1000).find((s) => s.prompt === "clear sky over a forest at dawn" && s.model === 3)!, tempDir("sun-corpus"));
    const score = scoreSky(sky, clipped(sky.pixels, 1), (p) => detectSun(p));
    expect(score.error).toBeLessThan(0.5);
    expect(Math.abs(score.energy! - 1)).toBeLessThan(0.35);
  });

  it("clipped at 1.0: morning suns 7 and 9 degrees up kept, their blobs fitting a clear sky a little worse than the clipped sky's best", { timeout: 60_000 }, async () => {
    // Seed set 0 (tuning), the moved suns of a Model 3 forest at dawn and beach at sunset: their blobs' costs exceed the
    // lattice's least by 0.0072 and 0.0075, where the Perez shape is furthest off the renderer's sky. Refused as lit
    // clouds at 0.007, the excess set on suns up to 6 degrees.
    for (const [prompt, elevation] of [
      ["clear sky over a forest at dawn", 7],
      ["ocean beach at sunset, clear sky", 9],
    ] as const) {
      const sky = await renderSky(pool(), corpusSkies(0).find((s) => s.prompt === prompt && s.elevation === elevation && s.model === 3)!, tempDir("sun-corpus"));
      const score = scoreSky(sky, clipped(sky.pixels, 1), (p) => detectSun(p));
      expect(score.error, prompt).toBeLessThan(1);
      expect(Math.abs(score.energy! - 1), prompt).toBeLessThan(0.35);
    }
  });

  it("clipped at 1.0: a sun 9 degrees up in a mound of glow merged with the horizon's haze placed where the clear sky fits best", { timeout: 60_000 }, async () => {
    // Seed set 0 (tuning), the moved "digital art" beach at sunset: its glow and the haze clip into one blob from the
    // horizon to 13.7 degrees. The sky's profile placed the sun at the blob's foot, 1 degree up, where it cast too
    // little to pass: no sun. The clear-sky model, fitted above the horizon band, places it 1 degree low (1.75
    // with the band fitted).
    const sky = await renderSky(pool(), corpusSkies(0).find((s) => s.prompt === "ocean beach at sunset, clear sky" && s.elevation === 9 && s.look === "digital-art")!, tempDir("sun-corpus"));
    const sun = detectSun(clipped(sky.pixels, 1));
    const score = scoreSky(sky, clipped(sky.pixels, 1), () => sun);
    expect(sun?.source).toBe("estimated");
    expect(score.error).toBeLessThan(1.5);
    expect(Math.abs(score.energy! - 1)).toBeLessThan(0.35);
  });

  it("clipped at 1.0: a sun over hills or a canyon placed from the sky alone, the terrain above the horizon left out of the fit", { timeout: 60_000 }, async () => {
    // Seed sets 200 and 500 (seen). With the dark hills and canyon walls fitted as sky, the sun was placed 10.8 and 2.4
    // degrees off.
    for (const [offset, prompt] of [
      [200, "clear morning over rolling hills"],
      [500, "clear afternoon over a canyon"],
    ] as const) {
      const sky = await renderSky(pool(), corpusSkies(offset).find((s) => s.prompt === prompt && s.model === 3)!, tempDir("sun-corpus"));
      const score = scoreSky(sky, clipped(sky.pixels, 1), (p) => detectSun(p));
      expect(score.error, prompt).toBeLessThan(2);
      expect(Math.abs(score.energy! - 1), prompt).toBeLessThan(0.5);
    }
  });

  it("clipped at 1.0 in a 4K panorama: its blobs searched every other pixel, the sun placed as in the 1K one", { timeout: 60_000 }, async () => {
    // Seed set 200 (seen): a Model 3 sun over hills, placed in its saturated blob.
    const sky = await renderSky(pool(), corpusSkies(200).find((s) => s.prompt === "clear morning over rolling hills" && s.model === 3)!, tempDir("sun-corpus"));
    const small = clipped(sky.pixels, 1);
    const large = repeated(small, 4);
    const [a, b] = [detectSun(small), detectSun(large)];
    expect(a?.source).toBe("estimated");
    expect(degreesBetween(b!.direction, a!.direction)).toBeLessThan(0.5);
    expect(Math.abs(b!.illuminance / a!.illuminance - 1)).toBeLessThan(0.1);
    expect(scoreSky(sky, large, () => b).error).toBeLessThan(2);
  });

  it("clipped at 1.0: no sun placed on a lit cloud whose blob passes for the sun's, and the sun's own blob tried where the clear sky points", { timeout: 60_000 }, async () => {
    const find = (prompt: string, seed: number) => [...corpusSkies(), ...corpusSkies(100)].find((s) => s.prompt === prompt && s.seed === seed)!;
    const score = async (prompt: string, seed: number) => {
      const sky = await renderSky(pool(), find(prompt, seed), tempDir("sun-corpus"));
      return scoreSky(sky, clipped(sky.pixels, 1), (p) => detectSun(p));
    };
    // The sun's blob merges with lit clouds (or cirrus) and the horizon's glow; a blob of cloud 15 to 30 degrees away
    // falls off and fits a clear sky, but far worse than a sun near the drawn one (clear-sky-search.ts): none is reported.
    for (const [prompt, seed] of [
      ["cloudy afternoon over the hills", 1],
      ["cirrus morning over the desert", 1],
      ["partly cloudy noon over the ocean", 102],
    ] as const) {
      const s = await score(prompt, seed);
      expect(s.found && s.error! > 5, `${prompt}, seed ${seed}: ${s.error?.toFixed(1)} degrees off`).toBe(false);
    }
    // The candidates (the clipped sky's top rows) all lie in cloud, 12 degrees off at best: the blob the clear sky points to
    // holds the sun, placed within a few degrees.
    const ocean = await score("partly cloudy noon over the ocean", 1);
    expect(ocean.found).toBe(true);
    expect(ocean.error!).toBeLessThan(5);
    // There it is a second blob of the sun's glow, 1.6 degrees from the sun the candidates' blob places more closely: kept.
    const savanna = await score("savanna in the afternoon, clear sky", 2);
    expect(savanna.error!).toBeLessThan(0.5);
  });

  it("finds no sun in a night whose moon the highlight clamp flattens like a clipped sun, in any variant", { timeout: 60_000 }, async () => {
    // A held-out Model 4 sky: its clipped moon fits a dim clear sky as a sun would; its ground is lit a hundred times less.
    const sky = corpusSkies(100).find((s) => s.prompt === "overcast day over the hills" && s.model === 4)!;
    const night = await renderSky(pool(), sky, tempDir("sun-corpus"));
    expect(night.expect).toBe("none");
    for (const limit of [Infinity, 16, 1]) expect(detectSun(limit === Infinity ? night.pixels : clipped(night.pixels, limit)), `clipped at ${limit}`).toBeNull();
  });

  it("finds no sun in a clear moonlit night whose glow lights the ground as a dim day's sun would (a stylised look), in any variant", { timeout: 60_000 }, async () => {
    // Model 4 "digital art" (seeds 302 and 202, of the seed sets the night floor came from): a moon clipped flat by the look's glow in a clear
    // sky that fits Preetham's as a day's does, its ground lit to match; only the sky's level (0.014 against a day's 0.29 or more) says night.
    for (const [offset, prompt] of [[300, "moonlit night over the hills"], [200, "aurora over a frozen lake"]] as const) {
      const sky = corpusSkies(offset).find((s) => s.prompt === prompt && s.model === 4)!;
      const night = await renderSky(pool(), sky, tempDir("sun-corpus"));
      expect(night.expect).toBe("none");
      for (const limit of [Infinity, 16, 1]) expect(detectSun(limit === Infinity ? night.pixels : clipped(night.pixels, limit)), `${prompt}, clipped at ${limit}`).toBeNull();
    }
  });

  it("finds no sun behind fog whose disk clips as a clear sun's, in any variant: the sky is white around it", { timeout: 60_000 }, async () => {
    // Seed set 1100 (seen). A digital-art misty lake, the sun 18 degrees up: the fog lets through under a tenth of it, and its
    // disk still outshines the clip level at 16; the sky above the fog is clear and fits Preetham's as a clear day's
    // does. But 10 to 40 degrees from the sun, where a clear sky's Rayleigh blue shows, it is white.
    const sky = await renderSky(pool(), corpusSkies(1100).find((s) => s.prompt === "misty lake in the morning" && s.look === "digital-art")!, tempDir("sun-corpus"));
    expect(sky.expect).toBe("none");
    for (const limit of [Infinity, 16, 1]) expect(detectSun(limit === Infinity ? sky.pixels : clipped(sky.pixels, limit)), `clipped at ${limit}`).toBeNull();
  });

  it("finds no sun in stylised fog at dawn whose disk clips as a clear sun's, in any variant: the sky around it has the sun's red", { timeout: 60_000 }, async () => {
    // Seed set 300 (seen). An "anime" foggy forest, the sun 5 degrees up, and the same forest's scene remixed with the sun
    // 8 degrees up ("painterly"): the fog lets through under a tenth of the sun, whose disk still clips at 16 and 1, and the
    // sky above the fog passes for a clear dawn's. 10 to 40 degrees from the sun the fog scatters the sun's red light
    // as it is (-0.47 and -0.21), where a clear dawn's Rayleigh sky is bluer (-0.11 and 0.09).
    for (const pick of [(s: CorpusSky) => s.look === "anime" && s.elevation === undefined, (s: CorpusSky) => s.look === "painterly" && s.elevation === 8]) {
      const sky = await renderSky(pool(), corpusSkies(300).find((s) => s.prompt === "foggy forest at dawn" && pick(s))!, tempDir("sun-corpus"));
      expect(sky.expect).toBe("none");
      for (const limit of [Infinity, 16, 1]) expect(detectSun(limit === Infinity ? sky.pixels : clipped(sky.pixels, limit)), `${sky.sky.look}, clipped at ${limit}`).toBeNull();
    }
  });
});

/** The panorama with each pixel repeated `factor` times across and down: the same sky in a wider panorama. */
function repeated(image: HdrPixels, factor: number): HdrPixels {
  const width = image.width * factor;
  const height = image.height * factor;
  const rgb = new Float32Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const from = (Math.floor(y / factor) * image.width + Math.floor(x / factor)) * 3;
      rgb.set(image.rgb.subarray(from, from + 3), (y * width + x) * 3);
    }
  }
  return { width, height, rgb };
}
