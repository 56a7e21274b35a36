/**
 * The cache in Chromium: a skybox applied again, even after a page reload, comes from
 * IndexedDB (baked .env and downloads) and downloads nothing; the cache is bounded by bytes
 * (least recently used first) and clearable.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Generation } from "../../../src/api/index.ts";
import { colourDistance, complete, generate, openPage, openSceneFixture, panoramaOf, type SceneFixture } from "../scene-fixture.ts";

let f: SceneFixture;
let skybox: Generation;

beforeAll(async () => {
  f = await openSceneFixture();
  skybox = await complete(f.client, (await generate(f.client, "sunset desert")).id);
  await f.page.evaluate(() => window.skyboxTest.clearCache());
}, 120_000);

afterAll(async () => {
  await f?.close();
});

const options = { lighting: { size: 128, quality: 32 }, backdrop: { meshQuality: "low" as const } };

describe("skybox cache", () => {
  test("after a page reload, the same skybox applies from the cache: no download, no export, no prefiltering", async () => {
    f.assetRequests.length = 0;
    const cold = await f.page.evaluate(([id, o]) => window.skyboxTest.apply(id, o), [skybox.id, options] as const);
    expect(cold.fromCache).toBe(false);
    expect(f.assetRequests.length).toBe(3); // HDRI, GLB, panorama
    const coldSpheres = await f.page.evaluate(() => window.skyboxTest.spheres());
    await f.page.evaluate(() => window.skyboxTest.whenCached());
    const keys = await f.page.evaluate(() => window.skyboxTest.cacheKeys());
    expect(keys.filter((k) => k.includes("|env|"))).toHaveLength(1);

    await openPage(f.page, f.pages.url);
    f.assetRequests.length = 0;
    const warm = await f.page.evaluate(([id, o]) => window.skyboxTest.apply(id, o), [skybox.id, options] as const);
    expect(f.assetRequests).toEqual([]);
    expect(warm.fromCache).toBe(true);
    expect(warm.environment).toBe("CubeTexture");
    expect(warm.stages.map((s) => s.stage)).not.toContain("requesting-export");
    expect(warm.stages.map((s) => s.stage)).not.toContain("downloading");
    // The baked environment lights exactly as the one it was baked from.
    const warmSpheres = await f.page.evaluate(() => window.skyboxTest.spheres());
    expect(colourDistance(warmSpheres.rough, coldSpheres.rough)).toBeLessThan(4);
    expect(colourDistance(warmSpheres.metal, coldSpheres.metal)).toBeLessThan(8);
    // Background and backdrop came from cached bytes too.
    const pano = await panoramaOf(f.pages.url, skybox);
    await f.page.evaluate(() => window.skyboxTest.setVisible({ backdrop: false }));
    expect(pano.distance(await f.page.evaluate(() => window.skyboxTest.look(60, 15)), 60, 15)).toBeLessThan(12);
    expect(warm.backdrop!.children).toEqual([{ vertices: 65 * 33, textured: true }]);
  });

  test("other options are other entries: a different cube size is built, not taken from the cache", async () => {
    f.assetRequests.length = 0;
    const other = await f.page.evaluate(([id, o]) => window.skyboxTest.apply(id, o), [
      skybox.id,
      { ...options, lighting: { size: 64, quality: 32 } },
    ] as const);
    expect(other.fromCache).toBe(false);
    // The HDRI download itself is cached: only prefiltering runs again.
    expect(f.assetRequests).toEqual([]);
    expect(other.stages.map((s) => s.stage)).toContain("prefiltering");
  });

  test("the cache is bounded by bytes, least recently used first, and clearable", async () => {
    const result = await f.page.evaluate(async () => {
      const cache = new window.skyboxTest.SkyboxCache({ maxBytes: 1000, databaseName: "skybox-lru-test" });
      await cache.clear();
      const bytes = (n: number, v: number) => new Uint8Array(n).fill(v);
      await cache.put("a", bytes(400, 1));
      await cache.put("b", bytes(400, 2));
      await cache.get("a"); // a is now more recent than b
      await new Promise((r) => setTimeout(r, 20));
      await cache.put("c", bytes(400, 3)); // 1200 bytes: b goes
      const afterC = {
        keys: await cache.keys(),
        size: await cache.size(),
        a: (await cache.get("a"))?.[0] ?? null,
        b: await cache.get("b"),
      };
      await cache.put("huge", bytes(2000, 4)); // larger than the bound: not stored
      const afterHuge = (await cache.keys()).sort();
      await cache.clear();
      const cleared = { keys: await cache.keys(), size: await cache.size() };
      cache.close();
      return { afterC, afterHuge, cleared };
    });
    expect(result.afterC).toEqual({ keys: ["a", "c"], size: 800, a: 1, b: null });
    expect(result.afterHuge).toEqual(["a", "c"]);
    expect(result.cleared).toEqual({ keys: [], size: 0 });
  });

  test("the page logged no errors", () => {
    expect(f.pageErrors).toEqual([]);
  });
});
