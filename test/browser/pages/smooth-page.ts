/**
 * Page of the smoothness test and bench (test/scene/apply-smoothness.browser.test.ts,
 * test/bench/smooth-bench.ts): a Babylon scene rendering continuously, as an editor or a game
 * does, while `applySkybox` or `loadSkybox` runs; what the main thread went through from the
 * call until `whenCached` settles plus one second (long tasks, frames over 50 ms).
 */
import { Engine } from "@babylonjs/core/Engines/engine.js";
import { Scene } from "@babylonjs/core/scene.js";
import { FreeCamera } from "@babylonjs/core/Cameras/freeCamera.js";
import { Color3 } from "@babylonjs/core/Maths/math.color.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { PBRMaterial } from "@babylonjs/core/Materials/PBR/pbrMaterial.js";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder.js";
import {
  applySkybox,
  createSkyboxCache,
  getEnvironmentCache,
  loadSkybox,
  type AppliedSkybox,
  type ApplySkyboxOptions,
} from "../../../src/scene/index.ts";
import { Effect } from "@babylonjs/core/Materials/effect.js";
import {
  recordMainThread,
  watchShaderPreparation,
  watchWebGLCalls,
  type Blocked,
  type MainThreadRecord,
  type SlowCall,
  type Step,
} from "./long-tasks.ts";

/** Where the call may take its environment from: nothing cached, the engine's memory, or IndexedDB (memory cleared). */
export type SmoothMode = "cold" | "memory" | "indexeddb";

/** Options the page passes on (no functions, no objects of the page's). */
export type SmoothOptions = Omit<ApplySkyboxOptions, "client" | "tracker" | "cache" | "replace" | "signal" | "onProgress">;

/** What one call cost the page. */
export interface SmoothRun {
  resolveMs: number;
  cachedMs: number;
  fromCache: boolean;
  /** Whether the skybox shines a sun light of its own (a sun was found, or known from the cache). */
  sun: boolean;
  longTasks: Blocked[];
  slowFrames: Blocked[];
  /** Our named steps of a millisecond or more (src/scene/scheduling/step-timing.ts). */
  steps: Step[];
  /** Every step of ours, however short, by name: its time in all and how many times it ran. */
  stepTotals: MainThreadRecord["stepTotals"];
  /** WebGL calls over 10 ms and shader calls over 1 ms, when the page watches them (`?watch`). */
  slowCalls: SlowCall[];
}

let engine: Engine;
let scene: Scene;
let current: AppliedSkybox | null = null;
const cache = createSkyboxCache({ databaseName: "skybox-smooth-cache" });
/** How long after `whenCached` the recording goes on (work it left queued still counts). */
const AFTER_MS = 1000;
const calls = new URLSearchParams(location.search).has("watch") ? watchWebGLCalls() : null;
if (calls) watchShaderPreparation(Effect, calls);

const api = {
  async setup() {
    engine = new Engine(document.getElementById("scene") as HTMLCanvasElement, false, { stencil: true, antialias: false });
    scene = new Scene(engine);
    const camera = new FreeCamera("camera", new Vector3(0, 0, -3), scene);
    camera.setTarget(Vector3.Zero());
    for (const [x, metallic, roughness] of [
      [-0.6, 1, 0.15],
      [0.6, 0, 1],
    ] as const) {
      const sphere = CreateSphere(`sphere${x}`, { diameter: 1, segments: 24 }, scene);
      sphere.position.x = x;
      const material = new PBRMaterial(`material${x}`, scene);
      Object.assign(material, { metallic, roughness, albedoColor: Color3.White() });
      sphere.material = material;
    }
    engine.runRenderLoop(() => scene.render());
    await cache.clear();
  },

  /**
   * Applies (a generation id) or loads (a skybox.json URL) while the scene renders, replacing
   * the current skybox, and records the main thread until `whenCached` settles plus a second.
   */
  async measure(target: number | string, options: SmoothOptions, mode: SmoothMode): Promise<SmoothRun> {
    await api.prepare(mode);
    const recording = recordMainThread();
    const t0 = performance.now();
    calls?.take(t0);
    const common = { cache, replace: current };
    const isUrl = typeof target === "string";
    current = await (isUrl ? loadSkybox(scene, target, { ...options, ...common }) : applySkybox(scene, target, { ...options, ...common }));
    const resolveMs = performance.now() - t0;
    await current.whenCached;
    const cachedMs = performance.now() - t0;
    await new Promise((r) => setTimeout(r, AFTER_MS));
    return {
      resolveMs,
      cachedMs,
      fromCache: current.fromCache,
      sun: current.sun !== null,
      ...recording.stop(),
      slowCalls: calls?.take(t0) ?? [],
    };
  },

  /** Empties the caches the mode says are empty; what is shown goes first, so nothing holds an entry. */
  async prepare(mode: SmoothMode) {
    if (mode === "memory") return;
    current?.dispose();
    current = null;
    getEnvironmentCache(engine).clear();
    if (mode === "cold") await cache.clear();
  },

  dispose() {
    current?.dispose();
    current = null;
  },
};

declare global {
  interface Window {
    skyboxSmooth: typeof api;
  }
}
window.skyboxSmooth = api;
