import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { RenderRequest } from "../../../../src/local/imagery/contract.ts";
import { createImageryPool } from "../../../../src/local/imagery/pipeline/render-pool.ts";
import { generateSkybox } from "../../../../src/local/imagery/pipeline/generate-skybox.ts";
import { readJpeg, readRadiance, renderPool, request, type Rgb8, tempDir } from "../render-fixtures.ts";

/*
 * The scenes keep their kind whatever shortcuts the renderer takes: the prompt's words
 * still decide the time of day, the weather and the ground one sees, and at a size where
 * the sky, the clouds and the ground under the camera come from coarse grids (2048 wide)
 * the panorama still closes without a seam, keeps its HDR sun and does not depend on how
 * the work was split.
 */

const pool = renderPool();

async function render(overrides: Partial<RenderRequest>, on = pool()): Promise<string> {
  const dir = tempDir("kinds");
  await generateSkybox(request(overrides), dir, { pool: on });
  return dir;
}

/** Mean display colour of rows [y0, y1) of an image. */
function band(img: Rgb8, y0: number, y1: number): [number, number, number] {
  const m = [0, 0, 0];
  for (let y = y0; y < y1; y++)
    for (let x = 0; x < img.width; x++) for (let c = 0; c < 3; c++) m[c]! += img.data[(y * img.width + x) * 3 + c]!;
  const n = (y1 - y0) * img.width;
  return [m[0]! / n, m[1]! / n, m[2]! / n];
}

const luma = ([r, g, b]: [number, number, number]) => r * 0.3 + g * 0.59 + b * 0.11;
const sky = (img: Rgb8) => band(img, 0, img.height / 2 - 8);
const ground = (img: Rgb8) => band(img, img.height / 2 + 16, img.height);

describe("the prompt's words still drive the picture", () => {
  it("time of day: noon bright under a blue sky, sunset dimmer and warm, night dark", async () => {
    const noon = await readJpeg(await render({ prompt: "rolling hills at noon" }));
    const sunset = await readJpeg(await render({ prompt: "rolling hills at sunset" }));
    const night = await readJpeg(await render({ prompt: "rolling hills at night" }));
    const all = (img: Rgb8) => luma(band(img, 0, img.height));
    expect(all(noon)).toBeGreaterThan(all(sunset) * 1.5);
    expect(all(sunset)).toBeGreaterThan(all(night) * 2);
    const [nr, , nb] = sky(noon);
    expect(nb).toBeGreaterThan(nr + 20);
    const [sr, , sb] = sky(sunset);
    expect(sr).toBeGreaterThan(sb);
  });

  it("weather: an overcast sky is grey where a clear one is blue", async () => {
    const clear = sky(await readJpeg(await render({ prompt: "green hills under a clear sky at noon" })));
    const overcast = sky(await readJpeg(await render({ prompt: "green hills under an overcast sky at noon" })));
    expect(clear[2] - clear[0]).toBeGreaterThan(50);
    expect(overcast[2] - overcast[0]).toBeLessThan(30);
  });

  it("ground: dunes are sand, a meadow is green, a snow field is white", async () => {
    const [dr, , db] = ground(await readJpeg(await render({ prompt: "desert dunes at noon" })));
    expect(dr).toBeGreaterThan(db + 30);
    const [mr, mg, mb] = ground(await readJpeg(await render({ prompt: "green meadow at noon" })));
    expect(mg).toBeGreaterThan(mr + 15);
    expect(mg).toBeGreaterThan(mb + 15);
    expect(Math.min(...ground(await readJpeg(await render({ prompt: "arctic snow field at noon" }))))).toBeGreaterThan(180);
  });
});

describe("at 2048x1024, where sky, clouds and the ground under the camera come from coarse grids", () => {
  const W = 2048;
  const H = 1024;
  const big = { prompt: "green hills under a cloudy sky at noon", size: { width: W, height: H } } satisfies Partial<RenderRequest>;
  let dir: string;
  beforeAll(async () => {
    dir = await render(big);
  });

  it("has no seam where the left and right edges meet, from the zenith to the nadir", () => {
    const { rgb } = readRadiance(dir);
    const lum = (x: number, y: number): number => {
      const o = (y * W + x) * 3;
      return rgb[o]! * 0.2 + rgb[o + 1]! * 0.7 + rgb[o + 2]! * 0.1;
    };
    // Per band of rows (sky and clouds, horizon, far ground, the ground under the camera),
    // the jump across the seam is no larger than between the columns next to it.
    const near = [1, 2, 3, 4, 5, 6, W - 8, W - 7, W - 6, W - 5, W - 4, W - 3];
    for (const [y0, y1] of [
      [0, 400],
      [400, 560],
      [560, 700],
      [700, H],
    ] as const) {
      let seam = 0;
      let local = 0;
      for (let y = y0; y < y1; y++) {
        seam += Math.abs(lum(0, y) - lum(W - 1, y));
        for (const x of near) local += Math.abs(lum(x, y) - lum(x + 1, y));
      }
      expect(seam, `rows ${y0}-${y1}`).toBeLessThan((2 * local) / near.length);
    }
  });

  it("keeps the sun far brighter than the sky in the HDR radiance", () => {
    const { rgb } = readRadiance(dir);
    let max = 0;
    for (const v of rgb) if (v > max) max = v;
    expect(max).toBeGreaterThan(10);
    // The zenith stays an ordinary sky.
    expect(rgb[1]!).toBeGreaterThan(0.01);
    expect(rgb[1]!).toBeLessThan(2);
  });

  it("does not depend on how the work was split (pool size)", async () => {
    const single = createImageryPool({ size: 1 });
    try {
      const other = await render(big, single);
      for (const f of ["radiance.hdr", "image.jpg", "distance.f32"])
        expect(readFileSync(join(other, f)).equals(readFileSync(join(dir, f))), f).toBe(true);
    } finally {
      await single.close();
    }
  });
});
