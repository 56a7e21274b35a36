/**
 * Background bakes under NullEngine: a replaced skybox's bake stops and lets its GPU
 * texture go, concurrent applies of one environment share one bake and one texture, and the
 * bake itself stops between faces.
 */
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import { InternalTexture, InternalTextureSource } from "@babylonjs/core/Materials/Textures/internalTexture.js";
import { Matrix } from "@babylonjs/core/Maths/math.vector.js";
import { SphericalPolynomial } from "@babylonjs/core/Maths/sphericalPolynomial.js";
import { Observable } from "@babylonjs/core/Misc/observable.js";
import { Scene } from "@babylonjs/core/scene.js";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import type { ApplyContext } from "../../../src/scene/apply-context.ts";
import { BackgroundBakes, backgroundBakes, type BakeFunction } from "../../../src/scene/background/background-bakes.ts";
import { buildEnvironment } from "../../../src/scene/build-parts.ts";
import { envKey } from "../../../src/scene/cache/cache-keys.ts";
import { bakeEnvironment } from "../../../src/scene/baking/env-bake.ts";
import { EnvironmentView } from "../../../src/scene/environment/environment-view.ts";
import { effectiveSource, lightingExport } from "../../../src/scene/exports/part-exports.ts";
import type { ResolvedLighting } from "../../../src/scene/apply-options.ts";
import { SkyboxCache } from "../../../src/scene/cache/skybox-cache.ts";

let engine: NullEngine;
let scene: Scene;

beforeAll(() => {
  engine = new NullEngine();
  // Float render targets, and PNG encoding without a canvas (Babylon Native's hook): a full bake runs in Node.
  engine.getCaps().textureFloatRender = true;
  (globalThis as { _native?: object })._native = { EncodeImageAsync: async () => new Blob([new Uint8Array(8)], { type: "image/png" }) };
  scene = new Scene(engine);
});
afterAll(() => {
  engine.dispose();
  delete (globalThis as { _native?: object })._native;
});

/** A prefiltered environment as far as a bake can tell: a ready 16-pixel cube with harmonics. */
function environment(): BaseTexture {
  const internal = new InternalTexture(engine, InternalTextureSource.CubeRaw);
  Object.assign(internal, { isCube: true, width: 16, height: 16, baseWidth: 16, baseHeight: 16, type: 1, isReady: true });
  const texture = new BaseTexture(scene, internal);
  texture.sphericalPolynomial = new SphericalPolynomial();
  return texture;
}

const referencesOf = (t: BaseTexture) => (t.getInternalTexture() as unknown as { _references: number })._references;

/** An applied skybox as far as its bake can tell. */
function user() {
  const onDisposeObservable = new Observable<unknown>();
  const u = { isDisposed: false, onDisposeObservable, dispose: () => ((u.isDisposed = true), onDisposeObservable.notifyObservers(u)) };
  return u;
}

/** A bake that waits for the test: `finish()` resolves it, an abort rejects it. */
function controlledBake() {
  const calls: { texture: BaseTexture; signal: AbortSignal }[] = [];
  let finish = () => {};
  const bake: BakeFunction = (texture, signal) =>
    new Promise<Uint8Array>((resolve, reject) => {
      calls.push({ texture, signal });
      finish = () => resolve(new Uint8Array([1, 2, 3]));
      signal.addEventListener("abort", () => reject(signal.reason), { once: true });
    });
  return { bake, calls, finish: () => finish() };
}

function cache(name = "bakes-test") {
  const c = new SkyboxCache({ indexedDB: null, databaseName: name });
  const put = vi.spyOn(c, "put");
  return { cache: c, put };
}

describe("background bakes", () => {
  test("replacing the skybox stops its bake, lets its GPU texture go and stores nothing", async () => {
    const { bake, calls } = controlledBake();
    const bakes = new BackgroundBakes(bake);
    const { cache: c, put } = cache();
    const env = environment();
    const shown = user();
    const done = bakes.bake(scene, "env-a", env, shown, c);
    expect(calls).toHaveLength(1);
    expect(referencesOf(env)).toBe(2); // the skybox's texture and the bake's view
    expect(bakes.running(scene, "env-a", c)).not.toBeNull();
    shown.dispose();
    expect(calls[0]!.signal.aborted).toBe(true);
    expect(bakes.running(scene, "env-a", c)).toBeNull();
    await done;
    expect(put).not.toHaveBeenCalled();
    expect(referencesOf(env)).toBe(1);
    expect(scene.textures).not.toContain(calls[0]!.texture);
  });

  test("a skybox already disposed is not baked at all", async () => {
    const { bake, calls } = controlledBake();
    const gone = user();
    gone.dispose();
    await new BackgroundBakes(bake).bake(scene, "env-b", environment(), gone, cache().cache);
    expect(calls).toHaveLength(0);
  });

  test("concurrent applies of one environment share one bake, which runs on while any of them shows", async () => {
    const { bake, calls, finish } = controlledBake();
    const bakes = new BackgroundBakes(bake);
    const { cache: c, put } = cache();
    const first = user();
    const env = environment();
    const pending = [bakes.bake(scene, "env-c", env, first, c)];
    // The re-applies light with a view of the bake's texture, as buildEnvironment makes them.
    const others = [user(), user(), user()];
    const views = others.map(() => new EnvironmentView(scene, bakes.running(scene, "env-c", c)!));
    others.forEach((u, i) => pending.push(bakes.bake(scene, "env-c", views[i]!, u, c)));
    expect(calls).toHaveLength(1);
    expect(views.every((v) => v.getInternalTexture() === env.getInternalTexture())).toBe(true);
    // The first skybox is replaced by the second: the bake goes on for the others.
    first.dispose();
    env.dispose();
    others[0]!.dispose();
    views[0]!.dispose();
    expect(calls[0]!.signal.aborted).toBe(false);
    finish();
    await Promise.all(pending);
    expect(put).toHaveBeenCalledTimes(1);
    expect(put).toHaveBeenCalledWith("env-c", new Uint8Array([1, 2, 3]));
    expect(bakes.running(scene, "env-c", c)).toBeNull();
    expect(referencesOf(views[1]!)).toBe(2); // the two views still shown
  });

  test("other environments, and other cache databases, are other bakes", () => {
    const { bake, calls } = controlledBake();
    const bakes = new BackgroundBakes(bake);
    const u = user();
    void bakes.bake(scene, "env-d", environment(), u, cache("one").cache);
    void bakes.bake(scene, "env-e", environment(), u, cache("one").cache);
    void bakes.bake(scene, "env-d", environment(), u, cache("two").cache);
    expect(calls).toHaveLength(3);
    u.dispose();
  });
});

describe("a re-apply during a bake", () => {
  test("lights with the bake's texture: no cache read, no export, no download", async () => {
    const lighting: ResolvedLighting = {
      source: "hdri-hdr",
      hdriMode: "realism",
      resolution: null,
      size: 256,
      quality: 64,
      intensity: 1.5,
    };
    const key = envKey("sky-1", effectiveSource(3, lighting), lightingExport(3, lighting), lighting);
    const { cache: c } = cache();
    const get = vi.spyOn(c, "get");
    const shown = user();
    const env = environment();
    const first = backgroundBakes.bake(scene, key, env, shown, c);
    const fail = () => {
      throw new Error("nothing is downloaded");
    };
    const ctx = {
      scene,
      model: 3,
      skyboxId: "sky-1",
      cache: c,
      name: (p: string) => `test-${p}`,
      progress: () => {},
      exportBytes: fail,
      generationFile: fail,
    } as unknown as ApplyContext;
    const built = await buildEnvironment(ctx, lighting, true);
    expect(get).not.toHaveBeenCalled();
    expect(built.bakeKey).toBe(key);
    expect(built.lighting.texture.getInternalTexture()).toBe(env.getInternalTexture());
    built.lighting.setRotation(Math.PI / 2);
    expect(built.lighting.texture.getReflectionTextureMatrix().equalsWithEpsilon(Matrix.RotationY(Math.PI / 2))).toBe(true);
    built.lighting.dispose();
    shown.dispose();
    await first;
  });
});

describe("bakeEnvironment", () => {
  /** Counts the faces read back; `stopAt` aborts during that read. */
  function reading(texture: BaseTexture, controller: AbortController, stopAt = Infinity) {
    const counter = { reads: 0 };
    texture.readPixels = () => {
      if (++counter.reads === stopAt) controller.abort(new Error("replaced"));
      return Promise.resolve(new Float32Array(16 * 16 * 4));
    };
    return counter;
  }

  test("bakes every face of every mip when nothing stops it", async () => {
    const env = environment();
    const counter = reading(env, new AbortController());
    const bytes = await bakeEnvironment(env, new AbortController().signal);
    expect(bytes.byteLength).toBeGreaterThan(100);
    expect(counter.reads).toBe(5 * 6); // mips 16, 8, 4, 2, 1
    expect(engine.scenes).toEqual([scene]);
  });

  test("stops at the next face once its signal aborts, and leaves no scene behind", async () => {
    const env = environment();
    const controller = new AbortController();
    const counter = reading(env, controller, 2);
    await expect(bakeEnvironment(env, controller.signal)).rejects.toThrow("replaced");
    expect(counter.reads).toBe(2);
    expect(engine.scenes).toEqual([scene]);
  });

  test("is skipped when stopped before it starts", async () => {
    const env = environment();
    const controller = new AbortController();
    const counter = reading(env, controller);
    controller.abort(new Error("replaced"));
    await expect(bakeEnvironment(env, controller.signal)).rejects.toThrow("replaced");
    expect(counter.reads).toBe(0);
  });
});
