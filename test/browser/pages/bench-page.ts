/**
 * Benchmark page of src/scene (test/bench/scene-bench.ts drives it): applySkybox timed stage
 * by stage (cold, from IndexedDB, from the engine's environment cache), the plain Babylon way
 * to the same result for comparison, and how much the background bake blocks the page. Every
 * timing ends with a pixel read-back, so queued GPU work is counted.
 */
import { Engine } from "@babylonjs/core/Engines/engine.js";
import { Scene } from "@babylonjs/core/scene.js";
import { FreeCamera } from "@babylonjs/core/Cameras/freeCamera.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { HDRCubeTexture } from "@babylonjs/core/Materials/Textures/hdrCubeTexture.js";
import { HDRFiltering } from "@babylonjs/core/Materials/Textures/Filtering/hdrFiltering.js";
import type { Generation } from "../../../src/api/index.ts";
import { applySkybox, bakeEnvironment, createSkyboxCache, getEnvironmentCache, type AppliedSkybox } from "../../../src/scene/index.ts";

/** Where an apply may take its environment from: nowhere (cold), IndexedDB only, or memory first. */
type CacheMode = "none" | "indexeddb" | "memory";

let engine: Engine;
let scene: Scene;
let current: AppliedSkybox | null = null;
const cache = createSkyboxCache({ databaseName: "skybox-bench-cache" });

const gpuDone = async () => void (await engine.readPixels(0, 0, 1, 1));

const api = {
  async setup(clearCache = true) {
    engine = new Engine(document.getElementById("scene") as HTMLCanvasElement, false, { preserveDrawingBuffer: true, stencil: true });
    scene = new Scene(engine);
    new FreeCamera("camera", Vector3.Zero(), scene);
    if (clearCache) await cache.clear();
  },

  /** applySkybox with lighting only (or every part); milliseconds from the start to each stage and to the end. */
  async ours(record: Generation, size: number, quality: number, mode: CacheMode, allParts = false) {
    const marks: Record<string, number> = {};
    if (mode === "indexeddb") getEnvironmentCache(engine).clear();
    const t0 = performance.now();
    current = await applySkybox(scene, record, {
      lighting: { size, quality },
      background: allParts,
      backdrop: allParts,
      cache: mode === "none" ? false : cache,
      replace: current,
      onProgress: (p) => (marks[p.stage] ??= performance.now() - t0),
    });
    await gpuDone();
    return { total: performance.now() - t0, marks, fromCache: current.fromCache };
  },

  /** The plain way: HDRCubeTexture from the file's URL, then HDRFiltering at the same quality. */
  async plain(url: string, size: number, quality: number) {
    const t0 = performance.now();
    const texture = new HDRCubeTexture(`${url}?plain=${Math.random()}`, scene, size, false, true, false, false);
    await new Promise<void>((resolve) => texture.onLoadObservable.addOnce(() => resolve()));
    await new HDRFiltering(engine, { quality }).prefilter(texture);
    await gpuDone();
    const ms = performance.now() - t0;
    texture.dispose();
    return ms;
  },

  /**
   * How the background bake of the current environment weighs on the page: a timer due every
   * 10 ms runs until the bake is stored; its worst lateness is the longest the page could not
   * answer. `env: true` times Babylon's `.env` bake of the same texture instead.
   */
  async bakeLoad(env: boolean) {
    const t0 = performance.now();
    let worst = 0;
    let running = true;
    const tick = (due: number) => {
      worst = Math.max(worst, performance.now() - due);
      if (!running) return;
      const next = performance.now() + 10;
      setTimeout(() => tick(next), 10);
    };
    tick(performance.now());
    await (env ? bakeEnvironment(current!.environment!) : current!.whenCached);
    running = false;
    return { ms: performance.now() - t0, worstBlockMs: worst };
  },

  memoryEntries: () => getEnvironmentCache(engine).size,
  whenCached: () => current?.whenCached,
  dispose() {
    current?.dispose();
    current = null;
  },
};

declare global {
  interface Window {
    skyboxBench: typeof api;
  }
}
window.skyboxBench = api;
