import { readFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { generateSkybox, SKY_DISTANCE } from "../../../../src/local/imagery/pipeline/generate-skybox.ts";
import { meanColour, readDistance, readJpeg, renderPool, request, tempDir } from "../render-fixtures.ts";

const pool = renderPool();

async function render(overrides: Parameters<typeof request>[0]): Promise<string> {
  const dir = tempDir("remix");
  await generateSkybox(request(overrides), dir, { pool: pool() });
  return dir;
}

/** A PNG whose rows above `skyline` (fraction of the height) are bright and below dark. */
function twoTone(width: number, height: number, skyline: number): Promise<Buffer> {
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    const v = y < skyline * height ? 230 : 40;
    data.fill(v, y * width * 3, (y + 1) * width * 3);
  }
  return sharp(data, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

/** Median over depth-map columns of the topmost row that hits a surface. */
function horizonRow(dir: string): number {
  const d = readDistance(dir);
  const w = 256;
  const rows: number[] = [];
  for (let x = 0; x < w; x++) {
    let y = 0;
    while (y < 128 && d[y * w + x]! >= SKY_DISTANCE) y++;
    rows.push(y);
  }
  rows.sort((a, b) => a - b);
  return rows[rows.length >> 1]!;
}

describe("remix", () => {
  it("pulls colours toward the init image, more with more strength", async () => {
    const red = await sharp({ create: { width: 200, height: 100, channels: 3, background: { r: 220, g: 30, b: 20 } } })
      .png()
      .toBuffer();
    const distances: number[] = [];
    for (const strength of [0, 0.45, 0.9]) {
      const dir = await render({ prompt: "forest hills at noon", initImage: { bytes: red, strength } });
      const [r, g, b] = meanColour(await readJpeg(dir));
      distances.push(Math.hypot(r - 220, g - 30, b - 20));
    }
    for (let i = 1; i < distances.length; i++) expect(distances[i]!).toBeLessThan(distances[i - 1]! - 10);
  });

  it("keeps a control image's horizon: a higher skyline gives a higher horizon", async () => {
    const high = await render({ prompt: "hills at noon", controlImage: await twoTone(256, 128, 0.3) });
    const low = await render({ prompt: "hills at noon", controlImage: await twoTone(256, 128, 0.42) });
    const plain = await render({ prompt: "hills at noon" });
    expect(horizonRow(high)).toBeLessThan(horizonRow(low) - 8);
    expect(horizonRow(low)).toBeLessThan(horizonRow(plain) - 4);
    // 0.3 of the height is 36 degrees up: the silhouette lands near there.
    expect(Math.abs(horizonRow(high) - 0.3 * 128)).toBeLessThan(10);
  });

  it("reuses the scene of remixFrom, with the new prompt's changes", async () => {
    const source = await render({ prompt: "canyon at sunset with a ringed planet" });
    const remix = await render({ prompt: "at night", seed: 99, remixFrom: source });
    const a = JSON.parse(readFileSync(join(source, "scene.json"), "utf8"));
    const b = JSON.parse(readFileSync(join(remix, "scene.json"), "utf8"));
    expect(b.relief).toBe(a.relief);
    expect(b.planets.length).toBe(a.planets.length);
    expect(b.time).toBe("night");
    expect(b.seed).toBe(99);
  });
});
