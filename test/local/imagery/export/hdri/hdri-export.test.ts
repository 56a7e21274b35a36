import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HDRI_MODES } from "../../../../../src/api/reference.ts";
import { exportSkybox } from "../../../../../src/local/imagery/export/export-skybox.ts";
import { babylonReadExr, babylonReadHdr, type FloatImage } from "../babylon-readers.ts";
import { request } from "../export-request.ts";
import { makeStoredSkybox, SUN, SUN_V, type Fixture } from "../stored-skybox-fixture.ts";
import { removeTempDirs } from "../temp-dirs.ts";

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeStoredSkybox(512, 256);
});
afterAll(removeTempDirs);

function at(img: FloatImage, u: number, v: number): [number, number, number] {
  const i = (Math.floor(v * img.height) * img.width + Math.floor(u * img.width)) * 3;
  return [img.rgb[i]!, img.rgb[i + 1]!, img.rgb[i + 2]!];
}

/** Mean relative difference of two images, pixel by pixel (the sun does not dominate it). */
function difference(a: FloatImage, b: FloatImage): number {
  let sum = 0;
  for (let i = 0; i < a.rgb.length; i++) sum += Math.abs(a.rgb[i]! - b.rgb[i]!) / (a.rgb[i]! + b.rgb[i]! + 1e-3);
  return sum / a.rgb.length;
}

describe("hdri-hdr", () => {
  it("writes Radiance RGBE that Babylon reads, at the requested size, with the sun far above 1.0", async () => {
    const result = await exportSkybox(request(fixture.dir, { type: "hdri-hdr", size: { width: 256, height: 128 } }));
    expect(result.path.endsWith(".hdr")).toBe(true);
    expect(result.contentType).toBe("image/vnd.radiance");
    const img = babylonReadHdr(readFileSync(result.path));
    expect([img.width, img.height]).toEqual([256, 128]);
    const sun = at(img, SUN.u, SUN_V);
    expect(sun[0]).toBeGreaterThan(50);
    expect(sun[0]).toBeLessThan(110);
    const sky = at(img, 0.5, 0.2);
    expect(sky[2]).toBeGreaterThan(sky[0]); // blue zenith side
    expect(sky[2]).toBeLessThan(1.01);
  });

  it("enlarges too (bilinear), keeping radiance", async () => {
    const img = babylonReadHdr(
      readFileSync((await exportSkybox(request(fixture.dir, { type: "hdri-hdr", size: { width: 1024, height: 512 } }))).path),
    );
    expect([img.width, img.height]).toEqual([1024, 512]);
    expect(at(img, SUN.u, SUN_V)[0]).toBeGreaterThan(90);
  });

  it("gives five measurably different files for the five modes, each deterministic", async () => {
    const files = new Map<string, Buffer>();
    for (const { key } of HDRI_MODES) {
      const req = request(fixture.dir, { type: "hdri-hdr", hdriMode: key, size: { width: 128, height: 64 } });
      files.set(key, readFileSync((await exportSkybox(req)).path));
      const again = readFileSync((await exportSkybox({ ...req, out: `${req.out}-again` })).path);
      expect(again.equals(files.get(key)!)).toBe(true);
    }
    const images = new Map([...files].map(([k, bytes]) => [k, babylonReadHdr(bytes)]));
    const all = [...images.values()];
    for (let a = 0; a < all.length; a++) {
      for (let b = a + 1; b < all.length; b++) expect(difference(all[a]!, all[b]!)).toBeGreaterThan(0.03);
    }
    const sun = (k: string): number => at(images.get(k)!, SUN.u, SUN_V)[0];
    expect(sun("realism")).toBeGreaterThan(90);
    expect(sun("artistic")).toBeGreaterThan(sun("realism")); // contrast boost
    expect(sun("studio")).toBeLessThan(10); // compressed sun
    const [ir, ig, ib] = at(images.get("interior")!, SUN.u, SUN_V);
    expect(0.2126 * ir + 0.7152 * ig + 0.0722 * ib).toBeLessThan(6.1); // sun clamped at luminance 6
    expect(ir).toBeGreaterThan(ib * 1.2); // warm
    expect(sun("space")).toBeGreaterThan(sun("realism")); // boosted highlights
    const sky = (k: string): number => at(images.get(k)!, 0.5, 0.3)[2];
    expect(sky("space")).toBeLessThan(sky("realism") * 0.3); // darkened sky
    const [r, g, b] = at(images.get("studio")!, 0.25, 0.8);
    expect(Math.max(r, g, b) - Math.min(r, g, b)).toBeLessThan(0.1); // desaturated ground
  });
});

describe("hdri-exr", () => {
  it("writes ZIP OpenEXR that Babylon reads, matching the .hdr export", async () => {
    const size = { width: 256, height: 128 };
    const result = await exportSkybox(request(fixture.dir, { type: "hdri-exr", size }));
    expect(result.path.endsWith(".exr")).toBe(true);
    expect(result.contentType).toBe("image/x-exr");
    const exr = await babylonReadExr(readFileSync(result.path));
    expect(exr.compression).toBe(3);
    expect([exr.width, exr.height]).toEqual([256, 128]);
    expect(at(exr, SUN.u, SUN_V)[0]).toBeGreaterThan(50);
    const hdr = babylonReadHdr(readFileSync((await exportSkybox(request(fixture.dir, { type: "hdri-hdr", size }))).path));
    for (let i = 0; i < exr.rgb.length; i += 97) {
      expect(Math.abs(exr.rgb[i]! - hdr.rgb[i]!)).toBeLessThanOrEqual(Math.abs(hdr.rgb[i]!) / 64 + 1e-3);
    }
  });

  it("applies the HDRI mode", async () => {
    const size = { width: 128, height: 64 };
    const studio = await babylonReadExr(
      readFileSync((await exportSkybox(request(fixture.dir, { type: "hdri-exr", size, hdriMode: "studio" }))).path),
    );
    const realism = await babylonReadExr(
      readFileSync((await exportSkybox(request(fixture.dir, { type: "hdri-exr", size, hdriMode: "realism" }))).path),
    );
    expect(at(studio, SUN.u, SUN_V)[0]).toBeLessThan(at(realism, SUN.u, SUN_V)[0] / 5);
  });
});
