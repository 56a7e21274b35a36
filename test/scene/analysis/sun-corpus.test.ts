/**
 * The done-when figures of the sun detection on a small part of the corpus of local skies
 * (sun-corpus.ts; `npm run bench -- sun` runs all of it): clear skies from 1.2 to 88 degrees,
 * sunsets and sunrises against their glow, Model 3 and Model 4; night, overcast, storm and
 * fog that hides the sun. As rendered, and clipped at 16 as an 8-bit-derived HDRI holds it:
 * every sun found within 2 degrees of the drawn one, none where there is none, the
 * irradiance within 35% of scene.json's (within 50% when clipped, estimated from the sky).
 * Clipped at 1.0, where the sky around the sun clips too: a sun whose disk its clipped glow
 * places within 3 degrees is found within 2 with its energy within 50%, others get none
 * rather than one placed by the glow's outline; no false sun. And nights whose clipped moon
 * looks like a clipped sun get none.
 */
import { describe, expect, it } from "vitest";
import { detectSun } from "../../../src/scene/analysis/detect-sun.ts";
import type { HdrPixels } from "../../../src/scene/analysis/hdr-pixels.ts";
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
  it(
    "finds every drawn sun within 2 degrees with its energy, and none at night, under overcast, storm or fog",
    { timeout: 180_000 },
    async () => {
      const skies = await renderPart();
      expect(skies.filter((s) => s.expect === "sun").length).toBeGreaterThanOrEqual(7);
      expect(skies.filter((s) => s.expect === "none").length).toBeGreaterThanOrEqual(5);
      for (const [limit, energy] of [
        [Infinity, 0.35],
        [16, 0.5],
      ] as const) {
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
      // A sun is placed within 2 degrees with its energy within 50%, or (its glow clipped too wide to place it) not at all.
      const suns = scores.filter((s) => s.expect === "sun");
      expect(suns.filter((s) => s.found && !(s.error! <= 2 && Math.abs(s.energy! - 1) < 0.5)).map((s) => s.prompt)).toEqual([]);
      expect(suns.filter((s) => s.found).length, "suns placed").toBeGreaterThanOrEqual(3);
      expect(
        scores.filter((s) => s.expect === "none" && s.found),
        "false suns clipped at 1.0",
      ).toEqual([]);
    },
  );

  it(
    "clipped at 1.0: a disk that clips on its own places the sun, 1% noise or not: a sunset disk at its glow's foot, a disk half behind the forest at dawn, a sky-only HDRI",
    { timeout: 60_000 },
    async () => {
      const skies = corpusSkies();
      const pick = (prompt: string, model: 3 | 4) =>
        skies.find((s) => s.prompt === prompt && s.model === model && s.elevation === undefined)!;
      const error = (sky: RenderedSky, pixels = clipped(sky.pixels, 1)) => scoreSky(sky, pixels, (p) => detectSun(p)).error;
      // A sunset 3 degrees up whose disk clips white at the foot of its glow, on the haze band below it (clipped in red alone).
      const beach = await renderSky(pool(), pick("ocean beach at sunset, clear sky", 3), tempDir("sun-corpus"));
      for (const seed of [0, 1, 2, 3])
        expect(error(beach, clipped(seed ? perturbed(beach.pixels, 0.01, seed) : beach.pixels, 1)), `noise seed ${seed}`).toBeLessThan(0.3);
      // A disk 2.7 degrees up at dawn, its lower half behind the forest: the circle its uncut rows outline places it, and
      // its energy is the share of it that shows. Clipped at 16 too.
      const dawn = await renderSky(pool(), pick("clear sky over a forest at dawn", 3), tempDir("sun-corpus"));
      for (const limit of [1, 16]) {
        const score = scoreSky(dawn, clipped(dawn.pixels, limit), (p) => detectSun(p));
        expect(score.error, `clipped at ${limit}`).toBeLessThan(0.3);
        expect(Math.abs(score.energy! - 1), `clipped at ${limit}`).toBeLessThan(0.35);
      }
      for (const seed of [1, 2, 3])
        expect(error(dawn, clipped(perturbed(dawn.pixels, 0.01, seed), 1)), `noise seed ${seed}`).toBeLessThan(0.3);
      // Ground black throughout (a sky-only HDRI): the ground's light says nothing, the sun is found.
      const noon = await renderSky(pool(), pick("clear desert at noon", 3), tempDir("sun-corpus"));
      const skyOnly = clipped(noon.pixels, 1);
      skyOnly.rgb.fill(0, Math.ceil(skyOnly.height / 2) * skyOnly.width * 3);
      expect(error(noon, skyOnly)).toBeLessThan(2);
    },
  );

  it(
    "clipped at 1.0: a sun whose glow clips more than 3 degrees around it is not placed in the glow: none, or the disk's own place",
    { timeout: 120_000 },
    async () => {
      // Suns a fit of the glow's fall-off placed within 2 degrees on the local renderer's skies (until session 14), and
      // 3 to 12 degrees off on photographs' 8-bit exports (real-skies.ts): a sunset blob, a sun 9 degrees up in a mound
      // of glow merged with the horizon's haze, morning suns 7 and 9 degrees up, suns over hills and a canyon.
      const cases: [number, (s: CorpusSky) => boolean][] = [
        [0, (s) => s.prompt === "clear desert dunes at sunset" && s.model === 4 && s.elevation === undefined],
        [0, (s) => s.prompt === "ocean beach at sunset, clear sky" && s.elevation === 9 && s.look === "digital-art"],
        [0, (s) => s.prompt === "clear sky over a forest at dawn" && s.elevation === 7 && s.model === 3],
        [200, (s) => s.prompt === "clear morning over rolling hills" && s.model === 3],
        [500, (s) => s.prompt === "clear afternoon over a canyon" && s.model === 3],
      ];
      const answers: string[] = [];
      for (const [offset, pick] of cases) {
        const sky = await renderSky(pool(), corpusSkies(offset).find(pick)!, tempDir("sun-corpus"));
        const score = scoreSky(sky, clipped(sky.pixels, 1), (p) => detectSun(p));
        answers.push(score.found ? `${score.error!.toFixed(1)} deg off` : "none");
        expect(score.found && score.error! > 2, `${sky.sky.prompt}: ${answers.at(-1)}`).toBe(false);
      }
      // The rule acts: most of them get none.
      expect(answers.filter((a) => a === "none").length, answers.join(", ")).toBeGreaterThanOrEqual(3);
    },
  );

  it("clipped at 1.0: a sun placed at its disk over a clipped horizon, where the sky clips white too", { timeout: 60_000 }, async () => {
    // Seed sets 200 and 300 (seen, not held out). (A fit of the glow's fall-off found neither sun in green alone,
    // both in red and green.) The tundra's clipped horizon, 16 degrees below its sun, fits the sky about as well as
    // the sky around the disk: the more confident sun (less air in front of it) wins.
    for (const [offset, prompt, look] of [
      [200, "arctic tundra in the morning, clear", "painterly"],
      [300, "clear afternoon over a canyon", "anime"],
    ] as const) {
      const sky = await renderSky(
        pool(),
        corpusSkies(offset).find((s) => s.prompt === prompt && s.look === look)!,
        tempDir("sun-corpus"),
      );
      const score = scoreSky(sky, clipped(sky.pixels, 1), (p) => detectSun(p));
      expect(score.error, prompt).toBeLessThan(2);
      expect(Math.abs(score.energy! - 1), prompt).toBeLessThan(0.5);
    }
  });

  it(
    "clipped at 16 and 1.0: a golden-hour lake's sun, its upper sky too pale to pass for clear but its horizon red all round",
    { timeout: 60_000 },
    async () => {
      // Seed set 1200 (seen). A Model 3 lake, the sun 2.5 degrees up: its sky 20 degrees up shows a blueness of 0.09,
      // under the 0.135 a foggy dawn is refused at; under 10 degrees up -0.69, where fog and overcast show -0.49 at most.
      const sky = await renderSky(
        pool(),
        corpusSkies(1200).find((s) => s.prompt === "lake at golden hour, clear sky" && s.model === 3)!,
        tempDir("sun-corpus"),
      );
      for (const limit of [16, 1]) {
        const score = scoreSky(sky, clipped(sky.pixels, limit), (p) => detectSun(p));
        expect(score.error, `clipped at ${limit}`).toBeLessThan(0.5);
        expect(Math.abs(score.energy! - 1), `clipped at ${limit}`).toBeLessThan(0.35);
      }
    },
  );

  it(
    "clipped at 1.0 in a 4K panorama: its blobs searched every other pixel, the same answer as the 1K one",
    { timeout: 60_000 },
    async () => {
      // Seed set 200 (seen): a Model 3 sun over hills, placed in its saturated blob.
      const sky = await renderSky(
        pool(),
        corpusSkies(200).find((s) => s.prompt === "clear morning over rolling hills" && s.model === 3)!,
        tempDir("sun-corpus"),
      );
      const small = clipped(sky.pixels, 1);
      const large = repeated(small, 4);
      const [a, b] = [detectSun(small), detectSun(large)];
      expect(b === null).toBe(a === null);
      if (a && b) {
        expect(degreesBetween(b.direction, a.direction)).toBeLessThan(0.5);
        expect(Math.abs(b.illuminance / a.illuminance - 1)).toBeLessThan(0.1);
      }
    },
  );

  it(
    "clipped at 1.0: no sun placed on a lit cloud whose blob passes for the sun's, and the sun's own blob tried where the clear sky points",
    { timeout: 60_000 },
    async () => {
      const find = (prompt: string, seed: number) =>
        [...corpusSkies(), ...corpusSkies(100)].find((s) => s.prompt === prompt && s.seed === seed)!;
      const score = async (prompt: string, seed: number) => {
        const sky = await renderSky(pool(), find(prompt, seed), tempDir("sun-corpus"));
        return scoreSky(sky, clipped(sky.pixels, 1), (p) => detectSun(p));
      };
      // The sun's blob merges with lit clouds (or cirrus) and the horizon's glow; a blob of cloud 15 to 30 degrees away
      // fits a clear sky, but far worse than a sun near the drawn one (clear-sky-search.ts): none is reported.
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
      expect(ocean.found && ocean.error! > 5).toBe(false);
      // There it is a second blob of the sun's glow, 1.6 degrees from the sun the candidates' blob places more closely: kept.
      const savanna = await score("savanna in the afternoon, clear sky", 2);
      expect(savanna.error!).toBeLessThan(0.5);
    },
  );

  it(
    "finds no sun in a night whose moon the highlight clamp flattens like a clipped sun, in any variant",
    { timeout: 60_000 },
    async () => {
      // A held-out Model 4 sky: its clipped moon fits a dim clear sky as a sun would; its sky casts a night's light.
      const sky = corpusSkies(100).find((s) => s.prompt === "overcast day over the hills" && s.model === 4)!;
      const night = await renderSky(pool(), sky, tempDir("sun-corpus"));
      expect(night.expect).toBe("none");
      for (const limit of [Infinity, 16, 1])
        expect(detectSun(limit === Infinity ? night.pixels : clipped(night.pixels, limit)), `clipped at ${limit}`).toBeNull();
    },
  );

  it(
    "finds no sun in a clear moonlit night whose glow lights the ground as a dim day's sun would (a stylised look), in any variant",
    { timeout: 60_000 },
    async () => {
      // Model 4 "digital art" (seeds 302 and 202, of the seed sets the night floor came from): a moon clipped flat by the look's glow in a clear
      // sky that fits Preetham's as a day's does, its ground lit to match; only the sky's level (0.014 against a day's 0.29 or more) says night.
      for (const [offset, prompt] of [
        [300, "moonlit night over the hills"],
        [200, "aurora over a frozen lake"],
      ] as const) {
        const sky = corpusSkies(offset).find((s) => s.prompt === prompt && s.model === 4)!;
        const night = await renderSky(pool(), sky, tempDir("sun-corpus"));
        expect(night.expect).toBe("none");
        for (const limit of [Infinity, 16, 1])
          expect(detectSun(limit === Infinity ? night.pixels : clipped(night.pixels, limit)), `${prompt}, clipped at ${limit}`).toBeNull();
      }
    },
  );

  it(
    "finds no sun behind fog whose disk clips as a clear sun's, in any variant: the sky is white around it",
    { timeout: 60_000 },
    async () => {
      // Seed set 1100 (seen). A digital-art misty lake, the sun 18 degrees up: the fog lets through under a tenth of it, and its
      // disk still outshines the clip level at 16; the sky above the fog is clear and fits Preetham's as a clear day's
      // does. But 10 to 40 degrees from the sun, where a clear sky's Rayleigh blue shows, it is white.
      const sky = await renderSky(
        pool(),
        corpusSkies(1100).find((s) => s.prompt === "misty lake in the morning" && s.look === "digital-art")!,
        tempDir("sun-corpus"),
      );
      expect(sky.expect).toBe("none");
      for (const limit of [Infinity, 16, 1])
        expect(detectSun(limit === Infinity ? sky.pixels : clipped(sky.pixels, limit)), `clipped at ${limit}`).toBeNull();
    },
  );

  it(
    "finds no sun in stylised fog at dawn whose disk clips as a clear sun's, in any variant: the sky around it has the sun's red",
    { timeout: 60_000 },
    async () => {
      // Seed set 300 (seen). An "anime" foggy forest, the sun 5 degrees up, and the same forest's scene remixed with the sun
      // 8 degrees up ("painterly"): the fog lets through under a tenth of the sun, whose disk still clips at 16 and 1, and the
      // sky above the fog passes for a clear dawn's. 10 to 40 degrees from the sun the fog scatters the sun's red light
      // as it is (-0.47 and -0.21), where a clear dawn's Rayleigh sky is bluer (-0.11 and 0.09).
      for (const pick of [
        (s: CorpusSky) => s.look === "anime" && s.elevation === undefined,
        (s: CorpusSky) => s.look === "painterly" && s.elevation === 8,
      ]) {
        const sky = await renderSky(
          pool(),
          corpusSkies(300).find((s) => s.prompt === "foggy forest at dawn" && pick(s))!,
          tempDir("sun-corpus"),
        );
        expect(sky.expect).toBe("none");
        for (const limit of [Infinity, 16, 1])
          expect(
            detectSun(limit === Infinity ? sky.pixels : clipped(sky.pixels, limit)),
            `${sky.sky.look}, clipped at ${limit}`,
          ).toBeNull();
      }
    },
  );
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
