/**
 * The life of applied skyboxes in Chromium: replacing one without a gap, failures that
 * leave the previous one in place, and twenty re-applies that leave nothing behind but what
 * the environment cache keeps.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Generation } from "../../src/api/index.ts";
import { complete, generate, openSceneFixture, type SceneFixture } from "./scene-fixture.ts";

let f: SceneFixture;
let a: Generation;
let b: Generation;
let m4: Generation;

beforeAll(async () => {
  f = await openSceneFixture();
  const pending = await Promise.all([
    generate(f.client, "sunset desert"),
    generate(f.client, "night city"),
    generate(f.client, "misty harbour", 4),
  ]);
  [a, b, m4] = (await Promise.all(pending.map((g) => complete(f.client, g.id)))) as [Generation, Generation, Generation];
  await f.page.evaluate(() => window.skyboxTest.clearCache());
}, 120_000);

afterAll(async () => {
  await f?.close();
});

const small = { lighting: { size: 64, quality: 16 }, backdrop: { meshQuality: "low" as const } };

describe("applied skyboxes", () => {
  test("a replacing skybox takes over in one step: the previous one stays whole until the new one is ready", async () => {
    await f.page.evaluate((id) => window.skyboxTest.apply(id, { cache: false }), a.id);
    const next = await f.page.evaluate((id) => window.skyboxTest.apply(id, { cache: false }), b.id);
    expect(next.previousShown.length).toBeGreaterThan(3);
    expect(next.previousShown.every(Boolean)).toBe(true);
    expect(next.previousDisposed).toBe(true);
    expect(next.sceneEnvironmentIsOurs).toBe(true);
    expect(next.meshes.length).toBeGreaterThan(1);
  });

  test("a refused export rejects with a clear message and leaves the previous skybox in place", async () => {
    await f.page.evaluate((id) => window.skyboxTest.apply(id, { cache: false, backdrop: false }), a.id);
    // Model 4 exports stop at 4K: the client's rules refuse 8K before anything is sent.
    const r = await f.page.evaluate((id) => window.skyboxTest.applyFailing(id, { cache: false, lighting: { resolution: "8K" } }), m4.id);
    expect(r.error?.message).toMatch(/hdri-hdr 8K realism export of skybox \w+ failed: .*8K is not available/);
    expect(r.environmentKept).toBe(true);
    expect(r.currentDisposed).toBe(false);
    expect(r.after).toEqual(r.before);
  });

  test("an unknown skybox and a cancelled apply reject, and leave nothing behind", async () => {
    await f.page.evaluate((id) => window.skyboxTest.apply(id, { cache: false }), a.id);
    const missing = await f.page.evaluate(() => window.skyboxTest.applyFailing(987654, { cache: false }));
    expect(missing.error?.kind).toBe("not_found");
    // The browser logs the 404 of that request; it is the expected one.
    const logged = f.pageErrors.splice(0);
    expect(logged.every((e) => e.includes("404"))).toBe(true);
    expect(missing.after).toEqual(missing.before);
    expect(missing.environmentKept).toBe(true);
    // Cancelled while waiting, downloading, building: whatever was built goes again.
    for (const ms of [0, 100, 250, 400]) {
      const aborted = await f.page.evaluate(([id, t]) => window.skyboxTest.applyFailing(id, { cache: false }, t), [b.id, ms] as const);
      if (aborted.error === null) continue; // finished before the abort on a fast machine
      expect(aborted.error.message, `abort after ${ms} ms`).toBe("stopped by the test");
      expect(aborted.after, `abort after ${ms} ms`).toEqual(aborted.before);
      expect(aborted.environmentKept).toBe(true);
      expect(aborted.currentDisposed).toBe(false);
    }
  });

  test("twenty re-applies return textures, meshes, materials, engine textures and observers to the baseline", async () => {
    // Warm-up: the first PBR frames create shared resources (BRDF lookup, default material) that stay.
    await f.page.evaluate(([id, o]) => window.skyboxTest.apply(id, o), [a.id, { ...small, cache: false }] as const);
    await f.page.evaluate(() => window.skyboxTest.spheres());
    await f.page.evaluate(() => window.skyboxTest.disposeCurrent());
    const baseline = await f.page.evaluate(() => window.skyboxTest.counts());
    const variants = [
      { ...small, cache: false },
      { ...small, cache: true },
      { ...small, background: { blur: 0.4 } },
      { ...small, lighting: { ...small.lighting, source: "equirect" as const } },
      { ...small, lighting: false as const, background: { blur: 0.2 } },
    ];
    for (let i = 0; i < 20; i++) {
      const id = [a.id, b.id, m4.id][i % 3]!;
      await f.page.evaluate(([id, o]) => window.skyboxTest.apply(id, o), [id, variants[i % variants.length]!] as const);
      if (i % 10 === 0) await f.page.evaluate(() => window.skyboxTest.spheres());
      if (i % 5 === 1) await f.page.evaluate(() => window.skyboxTest.whenCached());
    }
    const during = await f.page.evaluate(() => window.skyboxTest.counts());
    expect(during.meshes).toBeGreaterThan(baseline.meshes);
    await f.page.evaluate(() => window.skyboxTest.whenCached());
    await f.page.evaluate(() => window.skyboxTest.disposeCurrent());
    // The engine's environment cache keeps GPU textures of recent skyboxes for a re-apply (none
    // in use any more), and nothing else stays; once it lets them go, everything is as before.
    const kept = await f.page.evaluate(() => window.skyboxTest.memory());
    expect(kept.keys.length).toBeGreaterThan(0);
    expect(kept.inUse.every((used) => !used)).toBe(true);
    const withKept = await f.page.evaluate(() => window.skyboxTest.counts());
    expect({ ...withKept, engineTextures: baseline.engineTextures }).toEqual(baseline);
    await f.page.evaluate(() => window.skyboxTest.clearMemory());
    expect(await f.page.evaluate(() => window.skyboxTest.counts())).toEqual(baseline);
  }, 120_000);

  test("the page logged no errors", () => {
    expect(f.pageErrors).toEqual([]);
  });
});
