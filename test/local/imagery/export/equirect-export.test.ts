import { readFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportSkybox } from "../../../../src/local/imagery/export/export-skybox.ts";
import { request } from "./export-request.ts";
import { makeStoredSkybox, SUN, SUN_V, type Fixture } from "./stored-skybox-fixture.ts";
import { removeTempDirs } from "./temp-dirs.ts";

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeStoredSkybox(512, 256);
});
afterAll(removeTempDirs);

async function pixel(path: string, u: number, v: number): Promise<number[]> {
  const { data, info } = await sharp(path).raw().toBuffer({ resolveWithObject: true });
  const i = (Math.floor(v * info.height) * info.width + Math.floor(u * info.width)) * info.channels;
  return [data[i]!, data[i + 1]!, data[i + 2]!];
}

describe("equirectangular exports", () => {
  it("jpg at the stored size is the stored file", async () => {
    const result = await exportSkybox(request(fixture.dir, { type: "equirectangular-jpg", size: { width: 512, height: 256 } }));
    expect(result.contentType).toBe("image/jpeg");
    expect(result.path.endsWith(".jpg")).toBe(true);
    expect(readFileSync(result.path).equals(readFileSync(join(fixture.dir, "image.jpg")))).toBe(true);
  });

  it("jpg resampled to a smaller size keeps the sun where it was", async () => {
    const result = await exportSkybox(request(fixture.dir, { type: "equirectangular-jpg", size: { width: 256, height: 128 } }));
    const meta = await sharp(result.path).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 256, 128]);
    expect((await pixel(result.path, SUN.u, SUN_V))[0]).toBeGreaterThan(240);
    expect((await pixel(result.path, 0.5, 0.1))[0]).toBeLessThan(200);
  });

  it("png enlarges (16K path) deterministically", async () => {
    const req = request(fixture.dir, { type: "equirectangular-png", size: { width: 1024, height: 512 } });
    const result = await exportSkybox(req);
    expect(result.contentType).toBe("image/png");
    const meta = await sharp(result.path).metadata();
    expect([meta.format, meta.width, meta.height, meta.channels, meta.depth]).toEqual(["png", 1024, 512, 3, "uchar"]);
    expect((await pixel(result.path, SUN.u, SUN_V))[0]).toBeGreaterThan(240);
    const again = await exportSkybox({ ...req, out: `${req.out}-again` });
    expect(readFileSync(again.path).equals(readFileSync(result.path))).toBe(true);
  });
});
