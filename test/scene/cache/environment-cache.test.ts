/**
 * The engine's environment cache under NullEngine: least recently used eviction within the
 * byte budget, which releases the GPU textures of skyboxes no longer shown and never those of
 * skyboxes still shown; texture objects built on an entry hold it until disposed; the cache
 * goes with its engine; a re-apply through buildEnvironment takes the kept environment.
 */
import { Constants } from "@babylonjs/core/Engines/constants.js";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import { InternalTexture, InternalTextureSource } from "@babylonjs/core/Materials/Textures/internalTexture.js";
import { SphericalPolynomial } from "@babylonjs/core/Maths/sphericalPolynomial.js";
import { Scene } from "@babylonjs/core/scene.js";
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import type { ApplyContext } from "../../../src/scene/apply-context.ts";
import { buildEnvironment } from "../../../src/scene/build-parts.ts";
import { envKey } from "../../../src/scene/cache/cache-keys.ts";
import { environmentCacheOf, getEnvironmentCache, type EnvironmentCache } from "../../../src/scene/cache/environment-cache.ts";
import { EnvironmentView } from "../../../src/scene/environment/environment-view.ts";
import { effectiveSource, lightingExport } from "../../../src/scene/exports/part-exports.ts";
import type { ResolvedLighting } from "../../../src/scene/apply-options.ts";
import { SkyboxCache } from "../../../src/scene/cache/skybox-cache.ts";
import { textureBytes } from "../../../src/scene/cache/texture-bytes.ts";

let engine: NullEngine;
let scene: Scene;
let memory: EnvironmentCache;

beforeAll(() => {
  engine = new NullEngine();
  scene = new Scene(engine);
});
afterAll(() => engine.dispose());
beforeEach(() => {
  memory = getEnvironmentCache(engine);
  memory.clear();
  memory.maxBytes = 1024 * 1024;
});

/** Bytes of one 16-pixel half-float cube with mips: (256 + 64 + 16 + 4 + 1) texels x 6 faces x 8 bytes. */
const CUBE_16 = 341 * 6 * 8;

/** A prefiltered environment as an applied skybox shows it: a texture object over a 16-pixel half-float cube. */
function environment(): BaseTexture {
  const internal = new InternalTexture(engine, InternalTextureSource.CubeRaw);
  Object.assign(internal, {
    isCube: true,
    width: 16,
    height: 16,
    baseWidth: 16,
    baseHeight: 16,
    type: Constants.TEXTURETYPE_HALF_FLOAT,
    format: Constants.TEXTUREFORMAT_RGBA,
    isReady: true,
  });
  const texture = new BaseTexture(scene, internal);
  texture.sphericalPolynomial = new SphericalPolynomial();
  return texture;
}

const gpu = (t: BaseTexture) => t.getInternalTexture()!;
const referencesOf = (t: BaseTexture | InternalTexture) => (t instanceof InternalTexture ? t : gpu(t))._references;

describe("environment cache", () => {
  test("estimates GPU bytes from size, faces, mips and texel type", () => {
    expect(textureBytes(gpu(environment()), true)).toBe(CUBE_16);
    const panorama = new InternalTexture(engine, InternalTextureSource.Url);
    Object.assign(panorama, { width: 2048, height: 1024, type: Constants.TEXTURETYPE_UNSIGNED_BYTE, format: Constants.TEXTUREFORMAT_RGBA });
    expect(textureBytes(panorama, false)).toBe(2048 * 1024 * 4);
  });

  test("keeps GPU textures with a reference of its own and hands them back, least recently used first", () => {
    const [a, b] = [environment(), environment()];
    memory.add("a", gpu(a), true);
    memory.add("b", gpu(b), true);
    expect(referencesOf(a)).toBe(2);
    expect(memory.bytes).toBe(2 * CUBE_16);
    expect(memory.get("a")).toBe(gpu(a));
    expect(memory.keys()).toEqual(["b", "a"]);
    expect(memory.get("missing")).toBeNull();
  });

  test("the byte budget evicts the least recently used skyboxes no longer shown and releases their GPU textures", () => {
    memory.maxBytes = 2.5 * CUBE_16;
    const [a, b, c] = [environment(), environment(), environment()];
    for (const [key, t] of [
      ["a", a],
      ["b", b],
    ] as const)
      memory.add(key, gpu(t), true);
    const [gpuA, gpuB] = [gpu(a), gpu(b)];
    a.dispose(); // both replaced: only the cache holds them
    b.dispose();
    memory.get("a"); // a is now more recent than b
    memory.add("c", gpu(c), true);
    expect(memory.keys()).toEqual(["a", "c"]);
    expect(referencesOf(gpuB)).toBe(0); // released
    expect(referencesOf(gpuA)).toBe(1);
    memory.maxBytes = CUBE_16; // lowering the budget evicts at once; c is still shown
    expect(memory.keys()).toEqual(["c"]);
    expect(referencesOf(gpuA)).toBe(0);
    expect(memory.bytes).toBe(CUBE_16);
  });

  test("a skybox still shown keeps its entry whatever the budget; once disposed, the next trim evicts it", () => {
    memory.maxBytes = CUBE_16;
    const [a, b] = [environment(), environment()];
    memory.add("a", gpu(a), true);
    memory.add("b", gpu(b), true); // over budget, but both are shown
    expect(memory.keys()).toEqual(["a", "b"]);
    expect([memory.isInUse("a"), memory.isInUse("b")]).toEqual([true, true]);
    const gpuA = gpu(a);
    a.dispose();
    expect(memory.isInUse("a")).toBe(false);
    memory.trim();
    expect(memory.keys()).toEqual(["b"]);
    expect(referencesOf(gpuA)).toBe(0);
    expect(referencesOf(b)).toBe(2);
  });

  test("a view built on an entry holds it; disposing the view releases its reference", () => {
    const a = environment();
    memory.add("a", gpu(a), true);
    a.dispose();
    const kept = memory.get("a")!;
    const view = new EnvironmentView(scene, kept, "re-applied");
    expect(memory.isInUse("a")).toBe(true);
    expect(view.isCube).toBe(true);
    expect(view.coordinatesMode).toBe(Constants.TEXTURE_CUBIC_MODE);
    memory.maxBytes = 0;
    expect(memory.keys()).toEqual(["a"]); // shown: not evicted
    view.dispose();
    expect(referencesOf(kept)).toBe(1);
    memory.trim();
    expect(memory.size).toBe(0);
  });

  test("an entry larger than the budget is not kept, and a budget of 0 keeps nothing", () => {
    memory.maxBytes = CUBE_16 - 1;
    const a = environment();
    memory.add("a", gpu(a), true);
    expect(memory.size).toBe(0);
    expect(referencesOf(a)).toBe(1);
  });

  test("tells which cache databases hold an entry already", () => {
    memory.add("a", gpu(environment()), true);
    memory.markStored("a", "db-one");
    expect([memory.isStored("a", "db-one"), memory.isStored("a", "db-two"), memory.isStored("b", "db-one")]).toEqual([true, false, false]);
  });

  test("disposing the engine disposes its cache and lets go of every entry", () => {
    const other = new NullEngine();
    const otherScene = new Scene(other);
    const internal = new InternalTexture(other, InternalTextureSource.CubeRaw);
    Object.assign(internal, {
      isCube: true,
      width: 16,
      height: 16,
      type: Constants.TEXTURETYPE_HALF_FLOAT,
      format: Constants.TEXTUREFORMAT_RGBA,
      isReady: true,
    });
    new BaseTexture(otherScene, internal).dispose();
    internal.incrementReferences(); // as a texture object still holding it would
    getEnvironmentCache(other).add("a", internal, true);
    expect(internal._references).toBe(2);
    other.dispose();
    expect(environmentCacheOf(other)).toBeUndefined();
    expect(internal._references).toBe(1);
  });
});

describe("a re-apply through buildEnvironment", () => {
  const lighting: ResolvedLighting = { source: "hdri-hdr", hdriMode: "realism", resolution: null, size: 16, quality: 16, intensity: 1 };
  const key = envKey("sky-kept", effectiveSource(3, lighting), lightingExport(3, lighting), lighting);

  function context(cache: SkyboxCache) {
    const fail = () => {
      throw new Error("nothing is downloaded");
    };
    const stages: string[] = [];
    const ctx = {
      scene,
      model: 3,
      skyboxId: "sky-kept",
      cache,
      name: (p: string) => `test-${p}`,
      progress: (p: { detail?: string }) => stages.push(p.detail ?? ""),
      exportBytes: fail,
      generationFile: fail,
    };
    return { ctx: ctx as unknown as ApplyContext, stages };
  }

  test("lights with the kept GPU texture: no cache read, no download; it bakes only for databases that lack it", async () => {
    const shown = environment();
    memory.add(key, gpu(shown), true);
    shown.dispose(); // the first skybox was replaced
    const cache = new SkyboxCache({ indexedDB: null, databaseName: "kept-test" });
    const get = vi.spyOn(cache, "get");
    const { ctx, stages } = context(cache);
    const built = await buildEnvironment(ctx, lighting, true);
    expect(get).not.toHaveBeenCalled();
    expect(stages).toContain("environment kept in memory");
    expect(built.lighting.fromCache).toBe(true);
    expect(built.lighting.texture.getInternalTexture()).toBe(memory.get(key));
    expect(built.bakeKey).toBe(key); // this database may not hold it yet
    memory.markStored(key, "kept-test");
    const again = await buildEnvironment(ctx, lighting, true);
    expect(again.bakeKey).toBeNull();
    // Both shown: beyond any budget, kept; both disposed: the trim that follows evicts it.
    memory.maxBytes = 0;
    expect(memory.has(key)).toBe(true);
    built.lighting.dispose();
    again.lighting.dispose();
    await Promise.resolve();
    expect(memory.has(key)).toBe(false);
  });

  test("an apply without a cache neither takes nor keeps anything", async () => {
    memory.add(key, gpu(environment()), true);
    const { ctx } = context(null as unknown as SkyboxCache);
    await expect(buildEnvironment(ctx, lighting, true)).rejects.toThrow("nothing is downloaded");
  });
});
