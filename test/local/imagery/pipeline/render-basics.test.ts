import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PNG } from "pngjs";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STORED_FILES } from "../../../../src/local/imagery/contract.ts";
import { generateSkybox, SKY_DISTANCE } from "../../../../src/local/imagery/pipeline/generate-skybox.ts";
import { createImageryPool, type ImageryPool } from "../../../../src/local/imagery/pipeline/render-pool.ts";
import { H, readDistance, readJpeg, readRadiance, removeTempDirs, request, tempDir, W } from "../render-fixtures.ts";

let pool: ImageryPool;
let dir: string;

beforeAll(async () => {
  pool = createImageryPool({ size: 2 });
  dir = tempDir("basics");
  await generateSkybox(request({ prompt: "snowy mountains above a lake at sunset, scattered clouds" }), dir, { pool });
});
afterAll(async () => {
  await pool.close();
  removeTempDirs();
});

describe("generateSkybox files", () => {
  it("writes every stored file at the requested sizes, 2:1", async () => {
    for (const f of Object.values(STORED_FILES)) expect(existsSync(join(dir, f)), f).toBe(true);
    const image = await sharp(join(dir, STORED_FILES.image)).metadata();
    expect([image.format, image.width, image.height]).toEqual(["jpeg", W, H]);
    const thumb = await sharp(join(dir, STORED_FILES.thumb)).metadata();
    expect([thumb.width, thumb.height]).toEqual([180, 90]);
    const depth = PNG.sync.read(readFileSync(join(dir, STORED_FILES.depth)), { skipRescale: true });
    expect([depth.width, depth.height, depth.depth, depth.colorType]).toEqual([256, 128, 16, 0]);
    expect(readDistance(dir).length).toBe(256 * 128);
    const hdr = readRadiance(dir);
    expect([hdr.width, hdr.height]).toEqual([W, H]);
    const scene = JSON.parse(readFileSync(join(dir, STORED_FILES.scene), "utf8"));
    expect(scene.relief).toBe("mountains");
    expect(scene.water?.kind).toBe("lake");
  });

  it("has no seam where the left and right edges meet", () => {
    const { rgb } = readRadiance(dir);
    const lum = (x: number, y: number): number => {
      const o = (y * W + x) * 3;
      return rgb[o]! * 0.2 + rgb[o + 1]! * 0.7 + rgb[o + 2]! * 0.1;
    };
    let seam = 0;
    let neighbours = 0;
    for (let y = 0; y < H; y++) {
      seam += Math.abs(lum(0, y) - lum(W - 1, y));
      for (let x = 0; x < W - 1; x++) neighbours += Math.abs(lum(x, y) - lum(x + 1, y));
    }
    const typical = neighbours / (W - 1);
    expect(seam).toBeLessThan(2 * typical);
  });

  it("does not pinch at the poles: the top and bottom rows are nearly uniform", async () => {
    const img = await readJpeg(dir);
    for (const y of [0, H - 1]) {
      const values: number[] = [];
      for (let x = 0; x < W; x++) values.push(img.data[(y * W + x) * 3 + 1]!);
      const mean = values.reduce((a, b) => a + b, 0) / W;
      const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / W);
      expect(sd, `row ${y}`).toBeLessThan(4);
    }
  });

  it("stores true distances: growing toward the horizon on the ground, SKY_DISTANCE in the sky", () => {
    const d = readDistance(dir);
    const dw = 256;
    const dh = 128;
    // Straight down the camera stands on its rock: distance ~ eye height.
    expect(d[(dh - 1) * dw]!).toBeGreaterThan(1);
    expect(d[(dh - 1) * dw]!).toBeLessThan(3);
    expect(d[0]!).toBe(SKY_DISTANCE);
    // Along each column, from the nadir up to the horizon, distances mostly grow.
    let rising = 0;
    let steps = 0;
    for (let x = 0; x < dw; x += 8) {
      for (let y = dh - 1; y > dh / 2 + 1; y--) {
        steps++;
        if (d[(y - 1) * dw + x]! >= d[y * dw + x]! - 1e-3) rising++;
      }
    }
    expect(rising / steps).toBeGreaterThan(0.97);
    // Just below the horizon the ground is far away.
    expect(d[(dh / 2) * dw]!).toBeGreaterThan(300);
  });

  it("encodes the depth map from the distances, near = bright", () => {
    const depth = PNG.sync.read(readFileSync(join(dir, STORED_FILES.depth)), { skipRescale: true });
    // With skipRescale, pngjs hands 16-bit samples over as they are (RGBA, grey in each).
    const v = (x: number, y: number): number => depth.data[(y * 256 + x) * 4]!;
    expect(v(10, 0)).toBe(0);
    expect(v(10, 127)).toBeGreaterThan(v(10, 66));
    expect(v(10, 127)).toBeGreaterThan(50000);
  });
});
