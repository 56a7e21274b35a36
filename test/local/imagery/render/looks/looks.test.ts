import { beforeAll, describe, expect, it } from "vitest";
import { type Look, LOOKS, type RenderRequest } from "../../../../../src/local/imagery/contract.ts";
import { generateSkybox } from "../../../../../src/local/imagery/pipeline/generate-skybox.ts";
import { luminanceAt } from "../../../../../src/scene/analysis/sun-candidates.ts";
import { H, luma, meanAbsDiff, meanColour, readJpeg, readRadiance, renderPool, request, tempDir, W } from "../../render-fixtures.ts";

const pool = renderPool();

async function render(overrides: Partial<RenderRequest>): Promise<string> {
  const dir = tempDir("look");
  await generateSkybox(request({ prompt: "forest hills under a cloudy sky", ...overrides }), dir, { pool: pool() });
  return dir;
}

/** Fraction of pixels whose radiance equals their right neighbour's exactly (flat areas). */
function flatFraction(dir: string): number {
  const { rgb } = readRadiance(dir);
  let same = 0;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W - 1; x++) {
      const o = (y * W + x) * 3;
      if (rgb[o] === rgb[o + 3] && rgb[o + 1] === rgb[o + 4] && rgb[o + 2] === rgb[o + 5]) same++;
    }
  }
  return same / (H * (W - 1));
}

/** Number of distinct green radiance values (posterized looks have few). */
function distinctGreens(dir: string): number {
  const { rgb } = readRadiance(dir);
  const set = new Set<number>();
  for (let i = 1; i < rgb.length; i += 3) set.add(rgb[i]!);
  return set.size;
}

/** Quantiles of the luminance of the radiance above the horizon. */
function skyLuminance(dir: string): (q: number) => number {
  const { rgb } = readRadiance(dir);
  const values: number[] = [];
  for (let i = 0; i < (W * H) / 2; i++) values.push(luminanceAt(rgb, i));
  values.sort((a, b) => a - b);
  return (q) => values[Math.floor(q * (values.length - 1))]!;
}

/** Mean absolute Laplacian of luma over the lower two thirds (ground and horizon). */
async function detail(dir: string): Promise<number> {
  const img = await readJpeg(dir);
  let s = 0;
  let n = 0;
  for (let y = Math.floor(H / 3); y < H - 1; y++) {
    for (let x = 1; x < W - 1; x++) {
      s += Math.abs(4 * luma(img, x, y) - luma(img, x - 1, y) - luma(img, x + 1, y) - luma(img, x, y - 1) - luma(img, x, y + 1));
      n++;
    }
  }
  return s / n;
}

describe("looks", () => {
  const dirs = new Map<Look, string>();
  beforeAll(async () => {
    for (const look of LOOKS) dirs.set(look, await render({ look }));
  });

  it("changes the image visibly for every look", async () => {
    const photo = await readJpeg(dirs.get("photoreal")!);
    for (const look of LOOKS.filter((l) => l !== "photoreal")) {
      expect(meanAbsDiff(photo.data, (await readJpeg(dirs.get(look)!)).data), look).toBeGreaterThan(4);
    }
  });

  it("pixel-art is made of blocks and low-poly of flat facets", () => {
    // At 512 wide an art pixel is 2x2: both pixels of each pair are identical.
    const { rgb } = readRadiance(dirs.get("pixel-art")!);
    let pairs = 0;
    let same = 0;
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x += 2) {
        const o = (y * W + x) * 3;
        pairs++;
        if (rgb[o] === rgb[o + 3] && rgb[o + 1] === rgb[o + 4] && rgb[o + 2] === rgb[o + 5]) same++;
      }
    }
    expect(same / pairs).toBeGreaterThan(0.98);
    expect(flatFraction(dirs.get("low-poly")!)).toBeGreaterThan(flatFraction(dirs.get("photoreal")!) + 0.15);
  });

  it("anime and pixel-art posterize colour", () => {
    const photo = distinctGreens(dirs.get("photoreal")!);
    expect(distinctGreens(dirs.get("anime")!)).toBeLessThan(photo / 5);
    expect(distinctGreens(dirs.get("pixel-art")!)).toBeLessThan(photo / 5);
  });

  it("keeps every look's HDR sky about as bright as the photoreal sky it restyles", () => {
    // The shoulder of the tone curve once turned a grade's lift of a blue sky to white
    // into radiance 5.7: a digital-art skybox lit a scene ten times brighter than its
    // photoreal twin. Median and 90th percentile of the sky's luminance (the disk is
    // under 0.1% of it) within a factor of two of the photoreal sky's. Neon is left out:
    // it moves the sun to a sunset, a darker sky.
    const photo = skyLuminance(dirs.get("photoreal")!);
    for (const look of LOOKS.filter((l) => l !== "photoreal" && l !== "neon")) {
      const sky = skyLuminance(dirs.get(look)!);
      for (const q of [0.5, 0.9] as const) {
        const ratio = sky(q) / photo(q);
        expect(ratio, `${look} at ${q}`).toBeGreaterThan(0.5);
        expect(ratio, `${look} at ${q}`).toBeLessThan(2);
      }
    }
  });

  it("neon shifts the palette to magenta and violet; watercolor lightens", async () => {
    const [r, g, b] = meanColour(await readJpeg(dirs.get("neon")!));
    expect(r).toBeGreaterThan(g * 1.3);
    expect(b).toBeGreaterThan(g * 1.3);
    const lum = (c: number[]): number => c[0]! * 0.3 + c[1]! * 0.59 + c[2]! * 0.11;
    expect(lum(meanColour(await readJpeg(dirs.get("watercolor")!)))).toBeGreaterThan(
      lum(meanColour(await readJpeg(dirs.get("photoreal")!))) + 10,
    );
  });
});

describe("model and variant detail, soft lines", () => {
  it("renders Model 4 with more fine detail than Model 3, and enhanced more than standard", async () => {
    const m3 = await detail(await render({ model: 3, variant: null }));
    const m4 = await detail(await render({ model: 4, variant: "standard" }));
    const m4e = await detail(await render({ model: 4, variant: "enhanced" }));
    expect(m4).toBeGreaterThan(m3 * 1.05);
    expect(m4e).toBeGreaterThan(m4 * 1.05);
  });

  it("softLines softens the outlines of the anime look", async () => {
    // Rocks and mesas near the camera: what the look inks (distant hills it paints without lines).
    const hard = await detail(await render({ look: "anime", prompt: "desert canyon at noon" }));
    const soft = await detail(await render({ look: "anime", prompt: "desert canyon at noon", softLines: true }));
    expect(soft).toBeLessThan(hard * 0.95);
  });
});
