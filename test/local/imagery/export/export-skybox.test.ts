import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXPORT_TYPES } from "../../../../src/api/reference.ts";
import { EXPORT_FORMATS, exportSkybox } from "../../../../src/local/imagery/export/export-skybox.ts";
import { makeStoredSkybox, type Fixture } from "./stored-skybox-fixture.ts";
import { makeTempDir, removeTempDirs } from "./temp-dirs.ts";

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeStoredSkybox(256, 128);
});
afterAll(removeTempDirs);

describe("exportSkybox", () => {
  it("knows every export type of the spec, with its extension and content type", () => {
    expect(Object.keys(EXPORT_FORMATS).sort()).toEqual(EXPORT_TYPES.map((t) => t.key).sort());
    expect(EXPORT_FORMATS["hdri-exr"]).toMatchObject({ ext: "exr", contentType: "image/x-exr" });
    expect(EXPORT_FORMATS["3d-mesh-glb"]).toMatchObject({ ext: "glb", contentType: "model/gltf-binary" });
  });

  it("creates missing output folders and leaves only the final file", async () => {
    const dir = join(makeTempDir("skybox-out-"), "a", "b");
    const result = await exportSkybox({
      from: fixture.dir,
      type: "depth-map-png",
      size: { width: 64, height: 32 },
      out: join(dir, "depth"),
      imageScale: 1,
    });
    expect(result.path).toBe(join(dir, "depth.png"));
    expect(readdirSync(dir)).toEqual(["depth.png"]);
  });

  it("stops when cancelled and leaves no file behind", async () => {
    const dir = makeTempDir("skybox-cancel-");
    const controller = new AbortController();
    const running = exportSkybox(
      { from: fixture.dir, type: "video-landscape-mp4", size: { width: 256, height: 128 }, out: join(dir, "video"), imageScale: 0.25 },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 50);
    await expect(running).rejects.toMatchObject({ name: "AbortError" });
    expect(readdirSync(dir)).toEqual([]);
    const aborted = AbortSignal.abort();
    await expect(
      exportSkybox(
        { from: fixture.dir, type: "hdri-exr", size: { width: 64, height: 32 }, out: join(dir, "x"), imageScale: 1 },
        { signal: aborted },
      ),
    ).rejects.toThrow();
    expect(existsSync(join(dir, "x.exr"))).toBe(false);
  });

  it("reports a missing stored file as an error, leaving no file", async () => {
    const dir = makeTempDir("skybox-missing-");
    await expect(
      exportSkybox({ from: dir, type: "hdri-hdr", size: { width: 64, height: 32 }, out: join(dir, "out"), imageScale: 1 }),
    ).rejects.toThrow(/radiance\.hdr/);
    expect(readdirSync(dir)).toEqual([]);
  });
});
