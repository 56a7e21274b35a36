/**
 * The engine's environment cache in Chromium: a re-apply of a skybox shown before takes its
 * prefiltered environment, its background's panorama and its backdrop's textures as they are
 * on the GPU (nothing downloaded, decoded, uploaded or prefiltered); the byte budget evicts skyboxes no longer
 * shown and releases their GPU textures, never those of a skybox still shown; disposing a
 * skybox lets go of its reference. With the memory cleared, the baked texels from IndexedDB
 * light exactly as the environment they were read from.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Generation } from "../../../src/api/index.ts";
import { colourDistance, complete, generate, openSceneFixture, type SceneFixture } from "../scene-fixture.ts";

let f: SceneFixture;
let a: Generation;
let b: Generation;

beforeAll(async () => {
  f = await openSceneFixture();
  const pending = await Promise.all([generate(f.client, "sunset desert"), generate(f.client, "night city")]);
  [a, b] = (await Promise.all(pending.map((g) => complete(f.client, g.id)))) as [Generation, Generation];
  await f.page.evaluate(() => window.skyboxTest.clearCache());
}, 120_000);

afterAll(async () => {
  await f?.close();
});

const small = { lighting: { size: 64, quality: 16 }, backdrop: false as const };
/** GPU bytes of one 64-pixel half-float environment with its mips. */
const ENV_64 = 5461 * 6 * 8;

describe("environment cache", () => {
  test("a re-apply takes the environment, the panorama and the backdrop's textures kept in memory: no download, no texture created or uploaded, no prefiltering", async () => {
    const every = { lighting: small.lighting, backdrop: { meshQuality: "low" as const } };
    const first = await f.page.evaluate(([id, o]) => window.skyboxTest.apply(id, o), [a.id, every] as const);
    expect(first.fromCache).toBe(false);
    expect(first.textureWork.createRenderTargetCubeTexture).toBeGreaterThan(0); // prefiltered: the counter counts
    const lit = await f.page.evaluate(() => window.skyboxTest.spheres());
    await f.page.evaluate(([id, o]) => window.skyboxTest.apply(id, o), [b.id, every] as const); // a is replaced
    f.assetRequests.length = 0;
    const again = await f.page.evaluate(([id, o]) => window.skyboxTest.apply(id, o), [a.id, every] as const);
    expect(f.assetRequests).toEqual([]);
    expect(again.textureWork).toEqual({});
    expect(again.fromCache).toBe(true);
    expect(again.gpuTextures).toEqual(first.gpuTextures);
    expect(again.backdrop!.children).toEqual(first.backdrop!.children);
    expect(again.stages.map((s) => s.stage)).not.toContain("downloading");
    expect(again.stages.map((s) => s.detail)).toContain("environment kept in memory");
    const relit = await f.page.evaluate(() => window.skyboxTest.spheres());
    expect(colourDistance(relit.rough, lit.rough)).toBeLessThan(1);
    expect(colourDistance(relit.metal, lit.metal)).toBeLessThan(1);
  });

  test("the byte budget evicts the least recently used skybox no longer shown and releases its GPU texture", async () => {
    const lightingOnly = { ...small, background: false as const };
    await f.page.evaluate(() => window.skyboxTest.clearMemory());
    await f.page.evaluate((bytes) => window.skyboxTest.setMemoryBytes(bytes), ENV_64 * 1.5);
    const shownA = await f.page.evaluate(([id, o]) => window.skyboxTest.apply(id, { ...o, cache: true }), [a.id, lightingOnly] as const);
    const shownB = await f.page.evaluate(([id, o]) => window.skyboxTest.apply(id, o), [b.id, lightingOnly] as const);
    const memory = await f.page.evaluate(() => window.skyboxTest.memory());
    expect(memory.keys).toHaveLength(1);
    expect(memory.keys[0]).toContain(b.obfuscated_id);
    expect(memory.inUse).toEqual([true]);
    expect(memory.bytes).toBe(ENV_64);
    expect(await f.page.evaluate((id) => window.skyboxTest.gpuTextureAlive(id), shownA.gpuTextures.environment!)).toBe(false);
    expect(await f.page.evaluate((id) => window.skyboxTest.gpuTextureAlive(id), shownB.gpuTextures.environment!)).toBe(true);
  });

  test("a skybox still shown keeps its GPU texture past the budget; disposing it lets go of its reference", async () => {
    const lightingOnly = { ...small, background: false as const };
    const alive = (id: number | null) => f.page.evaluate((i) => window.skyboxTest.gpuTextureAlive(i), id!);
    await f.page.evaluate(() => window.skyboxTest.clearMemory());
    await f.page.evaluate((bytes) => window.skyboxTest.setMemoryBytes(bytes), ENV_64 * 1.5);
    const shownA = await f.page.evaluate(([id, o]) => window.skyboxTest.apply(id, o), [a.id, lightingOnly] as const);
    const litA = await f.page.evaluate(() => window.skyboxTest.spheres());
    // b is applied beside a (not replacing it): both are shown, both stay, over budget.
    const shownB = await f.page.evaluate(([id, o]) => window.skyboxTest.apply(id, { ...o, replace: false }), [b.id, lightingOnly] as const);
    const both = await f.page.evaluate(() => window.skyboxTest.memory());
    expect(both.inUse).toEqual([true, true]);
    expect(both.bytes).toBeGreaterThan(both.maxBytes);
    expect(await alive(shownA.gpuTextures.environment)).toBe(true);
    // b goes: no longer shown and beyond the budget, it is evicted at once; a stays.
    await f.page.evaluate(() => window.skyboxTest.disposeCurrent());
    const onlyA = await f.page.evaluate(() => window.skyboxTest.memory());
    expect(onlyA.keys).toHaveLength(1);
    expect(onlyA.keys[0]).toContain(a.obfuscated_id);
    expect(await alive(shownB.gpuTextures.environment)).toBe(false);
    // a, still in the scene, lights as before once it is the scene's environment again.
    await f.page.evaluate(() => window.skyboxTest.showOthers());
    const stillLit = await f.page.evaluate(() => window.skyboxTest.spheres());
    expect(colourDistance(stillLit.rough, litA.rough)).toBeLessThan(1);
    // Disposing a releases its reference: only the cache holds its GPU texture, until the budget wants the room.
    await f.page.evaluate(() => window.skyboxTest.disposeOthers());
    expect((await f.page.evaluate(() => window.skyboxTest.memory())).inUse).toEqual([false]);
    expect(await alive(shownA.gpuTextures.environment)).toBe(true);
    await f.page.evaluate((bytes) => window.skyboxTest.setMemoryBytes(bytes), ENV_64 / 2);
    expect((await f.page.evaluate(() => window.skyboxTest.memory())).keys).toEqual([]);
    expect(await alive(shownA.gpuTextures.environment)).toBe(false);
    await f.page.evaluate(() => window.skyboxTest.setMemoryBytes(256 * 1024 * 1024));
  });

  test("from IndexedDB, the baked texels light exactly as the environment they were baked from (every mip as read back)", async () => {
    const lightingOnly = { lighting: { size: 128, quality: 32 }, background: false as const, backdrop: false as const };
    await f.page.evaluate(() => window.skyboxTest.clearCache());
    const cold = await f.page.evaluate(([id, o]) => window.skyboxTest.apply(id, o), [a.id, lightingOnly] as const);
    expect(cold.fromCache).toBe(false);
    const coldLit = await f.page.evaluate(() => window.skyboxTest.spheres());
    await f.page.evaluate(() => window.skyboxTest.whenCached());
    await f.page.evaluate(() => window.skyboxTest.clearMemory());
    const warm = await f.page.evaluate(([id, o]) => window.skyboxTest.apply(id, o), [a.id, lightingOnly] as const);
    expect(warm.fromCache).toBe(true);
    expect(warm.environment).toBe("CubeTexture");
    // Uploaded level by level, nothing decoded, nothing rendered, nothing prefiltered.
    expect(Object.keys(warm.textureWork).sort()).toEqual(["_uploadArrayBufferViewToTexture", "createRawCubeTexture"]);
    expect(warm.textureWork._uploadArrayBufferViewToTexture).toBe(8 * 6);
    const warmLit = await f.page.evaluate(() => window.skyboxTest.spheres());
    expect(colourDistance(warmLit.rough, coldLit.rough)).toBeLessThan(1);
    expect(colourDistance(warmLit.metal, coldLit.metal)).toBeLessThan(1);
  });

  test("the page logged no errors", () => {
    expect(f.pageErrors).toEqual([]);
  });
});
