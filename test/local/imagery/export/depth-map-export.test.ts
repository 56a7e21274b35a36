import { readFileSync } from "node:fs";
import { PNG } from "pngjs";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeDistance16, encodeDistance16 } from "../../../../src/api/depth-encoding.ts";
import { exportSkybox } from "../../../../src/local/imagery/export/export-skybox.ts";
import { request } from "./export-request.ts";
import { GROUND_HEIGHT, makeStoredSkybox, type Fixture } from "./stored-skybox-fixture.ts";
import { removeTempDirs } from "./temp-dirs.ts";

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeStoredSkybox(256, 256);
});
afterAll(removeTempDirs);

/** 16-bit samples decoded by pngjs (an independent reader), top row first. */
function readDepth(path: string): { width: number; height: number; at: (x: number, y: number) => number } {
  const bytes = readFileSync(path);
  const png = PNG.sync.read(bytes, { skipRescale: true });
  expect(png.depth).toBe(16);
  expect(png.colorType).toBe(0);
  const data = png.data as unknown as Uint16Array;
  return {
    width: png.width,
    height: png.height,
    at: (x, y) => data[(y * png.width + x) * 4]!,
  };
}

describe("depth-map-png", () => {
  it("encodes distance logarithmically: exact round trip within 0.03 %", () => {
    for (const d of [0.6, 1, 2.5, 40, 999, 50_000, 900_000])
      expect(Math.abs(decodeDistance16(encodeDistance16(d)) - d) / d).toBeLessThan(3e-4);
    expect(encodeDistance16(0.01)).toBe(65535);
    expect(encodeDistance16(999_999)).toBe(1); // the farthest surface is not the sky
    expect(encodeDistance16(1e6)).toBe(0);
    expect(encodeDistance16(1e9)).toBe(0);
    expect(encodeDistance16(Infinity)).toBe(0);
  });

  it("writes a 16-bit greyscale PNG of the exact ground distance, sky black, nearer brighter", async () => {
    const result = await exportSkybox(request(fixture.dir, { type: "depth-map-png", size: { width: 256, height: 128 } }));
    expect(result.contentType).toBe("image/png");
    expect(result.path.endsWith(".png")).toBe(true);
    const depth = readDepth(result.path);
    expect([depth.width, depth.height]).toEqual([256, 128]);
    // The encoding, stated in the file's XMP description (what image tools show).
    expect((await sharp(result.path).metadata()).xmpAsString).toContain("Depth map. distance_m = 0.5 * (1000000 / 0.5)");
    expect(depth.at(10, 10)).toBe(0); // sky
    let previous = -1;
    for (let y = 66; y < 128; y += 4) {
      // Ground ray at row y: depression angle = (v - 0.5) * pi, distance = h / sin(angle).
      const v = (y + 0.5) / 128;
      const exact = GROUND_HEIGHT / Math.sin((v - 0.5) * Math.PI);
      const value = depth.at(100, y);
      expect(Math.abs(decodeDistance16(value) - exact) / exact).toBeLessThan(0.005);
      expect(value).toBeGreaterThan(previous); // looking further down = nearer = brighter
      previous = value;
    }
  });

  it("resamples to other sizes and is deterministic", async () => {
    const req = request(fixture.dir, { type: "depth-map-png", size: { width: 128, height: 64 } });
    const a = await exportSkybox(req);
    const b = await exportSkybox({ ...req, out: `${req.out}-again` });
    expect(readFileSync(a.path).equals(readFileSync(b.path))).toBe(true);
    const depth = readDepth(a.path);
    expect([depth.width, depth.height]).toEqual([128, 64]);
    const exact = GROUND_HEIGHT / Math.sin(((60 + 0.5) / 64 - 0.5) * Math.PI);
    expect(Math.abs(decodeDistance16(depth.at(30, 60)) - exact) / exact).toBeLessThan(0.01);
  });
});
