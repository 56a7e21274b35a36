/**
 * Test page of src/scene: a bare scene (no Inspector, so a side-effect import the library
 * forgot cannot hide behind one) and `window.skyboxTest`, the steps the browser tests call
 * through `page.evaluate`. Directions are given as panorama yaw/pitch: yaw 0 looks at the
 * panorama's centre (u = 0.5), yaw 90 at u = 0.75, whatever the scene's handedness.
 */
import { Engine } from "@babylonjs/core/Engines/engine.js";
import type { AbstractEngine } from "@babylonjs/core/Engines/abstractEngine.js";
import { Scene } from "@babylonjs/core/scene.js";
import { FreeCamera } from "@babylonjs/core/Cameras/freeCamera.js";
import { Color3, Color4 } from "@babylonjs/core/Maths/math.color.js";
import { Matrix, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { PBRMaterial } from "@babylonjs/core/Materials/PBR/pbrMaterial.js";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder.js";
import type { Mesh } from "@babylonjs/core/Meshes/mesh.js";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder.js";
import { CreateCylinder } from "@babylonjs/core/Meshes/Builders/cylinderBuilder.js";
import { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial.js";
import { Texture } from "@babylonjs/core/Materials/Textures/texture.js";
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import type { InternalTexture } from "@babylonjs/core/Materials/Textures/internalTexture.js";
import {
  applySkybox,
  bakeEnvironment,
  createSkyboxCache,
  getEnvironmentCache,
  loadSkybox,
  SkyboxCache,
  type AppliedSkybox,
  type ApplyProgress,
  type ApplySkyboxOptions,
  type LoadSkyboxOptions,
} from "../../../src/scene/index.ts";
import { bytesToBase64 } from "../../../src/api/client/base64.ts";
import { findSun } from "../../../src/scene/analysis/detect-sun.ts";
import { decodeHdr } from "../../../src/scene/analysis/hdr-pixels.ts";
import { findSunOffThread } from "../../../src/scene/sun-light/sun-finder.ts";

// Blob URLs still alive: every one the library creates must be revoked.
const liveBlobUrls = new Set<string>();
const createObjectURL = URL.createObjectURL.bind(URL);
const revokeObjectURL = URL.revokeObjectURL.bind(URL);
URL.createObjectURL = (obj: Blob | MediaSource) => {
  const url = createObjectURL(obj);
  liveBlobUrls.add(url);
  return url;
};
URL.revokeObjectURL = (url: string) => {
  liveBlobUrls.delete(url);
  revokeObjectURL(url);
};

// Web Workers the library starts: each must end once its job is answered or dropped.
const workers = { made: 0, live: 0, onReady: null as (() => void) | null };
const PageWorker = window.Worker;
window.Worker = class CountedWorker extends PageWorker {
  private _live = true;
  constructor(url: string | URL, options?: WorkerOptions) {
    super(url, options);
    workers.made++;
    workers.live++;
    // Heard before the library's own listener (added once the constructor returns).
    this.addEventListener("message", (e: MessageEvent<{ ready?: boolean }>) => void (e.data?.ready && workers.onReady?.()));
  }
  override terminate(): void {
    if (this._live) workers.live--;
    this._live = false;
    super.terminate();
  }
};

type JsonOptions = Omit<ApplySkyboxOptions, "client" | "tracker" | "cache" | "replace" | "signal" | "onProgress"> & {
  cache?: boolean;
  replace?: boolean;
};

type LoadJsonOptions = Omit<LoadSkyboxOptions, "cache" | "replace" | "signal" | "onProgress"> & { cache?: boolean; replace?: boolean };

let engine: AbstractEngine;
let scene: Scene;
let camera: FreeCamera;
let metal: Mesh;
let rough: Mesh;
let current: AppliedSkybox | null = null;
/** Skyboxes applied with `replace: false`, still in the scene. */
const others: AppliedSkybox[] = [];
/** Notifications of the current skybox's onSunChangedObservable. */
let sunChanges = 0;
/** The box on a ground plane of the sun tests (see `stage`). */
let stage: Mesh[] = [];
/** Cache writes of every skybox applied (replaced ones keep baking after they are gone). */
const cacheWrites: Promise<void>[] = [];
let sign = 1;
const cache = createSkyboxCache({ databaseName: "skybox-test-cache" });

function direction(yawDeg: number, pitchDeg: number): Vector3 {
  const yaw = (yawDeg * Math.PI) / 180;
  const pitch = (pitchDeg * Math.PI) / 180;
  return new Vector3(Math.sin(yaw) * Math.cos(pitch), Math.sin(pitch), sign * Math.cos(yaw) * Math.cos(pitch));
}

/**
 * Renders one frame as the render loop does: WebGPU submits its commands at the frame's end,
 * and a pass left open would be submitted later, once its swap-chain texture is gone. Reads of
 * the canvas follow in the same task, while that texture still exists.
 */
function frame(): void {
  engine.beginFrame();
  scene.render();
  engine.endFrame();
}

async function renderAndRead(x: number, y: number, size = 3): Promise<number[]> {
  await scene.whenReadyAsync();
  frame();
  const px = (await engine.readPixels(x - 1, y - 1, size, size)) as Uint8Array;
  const sum = [0, 0, 0];
  for (let i = 0; i < size * size; i++) for (let c = 0; c < 3; c++) sum[c]! += px[i * 4 + c]!;
  return sum.map((s) => Math.round(s / (size * size)));
}

/** The counts once they stop changing (two reads 50 ms apart agree; at most 2 s): work still ending settles first. */
async function settledCounts(): Promise<ReturnType<typeof counts>> {
  let last = JSON.stringify(counts());
  for (let waited = 0; waited < 2000; waited += 50) {
    await new Promise((r) => setTimeout(r, 50));
    const now = JSON.stringify(counts());
    if (now === last) break;
    last = now;
  }
  return counts();
}

function counts() {
  return {
    textures: scene.textures.length,
    meshes: scene.meshes.length,
    materials: scene.materials.length,
    geometries: scene.geometries.length,
    transformNodes: scene.transformNodes.length,
    engineTextures: engine.getLoadedTexturesCache().length,
    beforeRender: scene.onBeforeRenderObservable.observers.length,
    beforeCameraRender: scene.onBeforeCameraRenderObservable.observers.length,
    sceneDispose: scene.onDisposeObservable.observers.length,
    liveBlobUrls: liveBlobUrls.size,
    lights: scene.lights.length,
  };
}

/** GPU textures `describe` has seen, by uniqueId: whether each is still held can be asked later. */
const gpuTextures = new Map<number, InternalTexture>();
const seen = (t: InternalTexture | null | undefined) => (t ? (gpuTextures.set(t.uniqueId, t), t.uniqueId) : null);

/** Engine calls that create or fill a GPU texture (a memory-cache hit makes none). */
const TEXTURE_WORK = [
  "createTexture",
  "createRawCubeTexture",
  "createRawCubeTextureFromUrl",
  "createRenderTargetCubeTexture",
  "createRawTexture",
  "_uploadArrayBufferViewToTexture",
  "_uploadImageToTexture",
] as const;
let textureWork: Record<string, number> = {};

function countTextureWork(): void {
  const target = engine as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const method of TEXTURE_WORK) {
    // Each engine has these (WebGPU's from its extensions); one missing would hide texture work.
    if (typeof target[method] !== "function") throw new Error(`The engine has no ${method} to count`);
    const original = target[method].bind(engine);
    target[method] = (...args: unknown[]) => {
      textureWork[method] = (textureWork[method] ?? 0) + 1;
      return original(...args);
    };
  }
}

function makeSphere(name: string, x: number, metallic: number, roughness: number): Mesh {
  const mesh = CreateSphere(name, { diameter: 0.8, segments: 32 }, scene);
  mesh.position.set(x, 0, 3 * sign);
  const material = new PBRMaterial(`${name}-material`, scene);
  material.metallic = metallic;
  material.roughness = roughness;
  material.albedoColor = Color3.White();
  mesh.material = material;
  mesh.setEnabled(false);
  return mesh;
}

/** The engines the tests run on. */
export type EngineKind = "webgl" | "webgpu";

/**
 * A WebGL2 engine, or a WebGPU one that compiles WGSL only: Babylon's materials pick their WGSL
 * shaders on WebGPU, and a GLSL shader would need glslang and twgsl from Babylon's CDN. With
 * no path to them, such a shader fails with "glslang is not available" instead of fetching.
 */
async function createEngine(canvas: HTMLCanvasElement, kind: EngineKind): Promise<AbstractEngine> {
  if (kind === "webgl") return new Engine(canvas, false, { preserveDrawingBuffer: true, stencil: true, antialias: false });
  const { WebGPUEngine } = await import("@babylonjs/core/Engines/webgpuEngine.js");
  const gpu = new WebGPUEngine(canvas, {
    stencil: true,
    antialias: false,
    glslangOptions: { jsPath: "", wasmPath: "" },
    twgslOptions: { jsPath: "", wasmPath: "" },
  });
  await gpu.initAsync();
  return gpu;
}

const api = {
  async setup(options: { rightHanded?: boolean; engine?: EngineKind } = {}) {
    const canvas = document.getElementById("scene") as HTMLCanvasElement;
    engine = await createEngine(canvas, options.engine ?? "webgl");
    countTextureWork();
    scene = new Scene(engine);
    scene.useRightHandedSystem = options.rightHanded ?? false;
    sign = scene.useRightHandedSystem ? -1 : 1;
    scene.clearColor = new Color4(0, 0, 0, 1);
    camera = new FreeCamera("camera", Vector3.Zero(), scene);
    camera.fov = 0.6;
    camera.minZ = 0.1;
    camera.maxZ = 2000;
    camera.setTarget(direction(0, 0));
    // Mirror-like and fully rough, as seen from the camera (see `spheres`).
    metal = makeSphere("metal", -0.55, 1, 0.15);
    rough = makeSphere("rough", 0.55, 0, 1);
    frame();
    return {
      engine: engine.name,
      isWebGPU: engine.isWebGPU,
      description: engine.description,
      maxTextureSize: engine.getCaps().maxTextureSize,
    };
  },

  /**
   * Applies a skybox, replacing the current one. `previousShown` tells, for every progress
   * report before "ready", whether the previous skybox was still fully in place.
   */
  async apply(skybox: number | string, options: JsonOptions = {}) {
    return api._applied((o) => applySkybox(scene, skybox, { ...(options as ApplySkyboxOptions), ...o }), options);
  },

  /** Loads a saved skybox (`loadSkybox`) as `apply` applies one. */
  async load(url: string, options: LoadJsonOptions = {}) {
    return api._applied((o) => loadSkybox(scene, url, { ...(options as LoadSkyboxOptions), ...o }), options);
  },

  /** The current skybox's environment baked to a `.env` (base64), as the pane's "Save to project" bakes it. */
  async bakeEnv() {
    return bytesToBase64(await bakeEnvironment(current!.environment!));
  },

  /** The current skybox's sun: its direction in the panorama's frame, and whether its light shines. */
  savedSun() {
    const sun = current?.sun;
    return sun ? { direction: sun.sun.direction, enabled: sun.isEnabled, intensity: sun.light.intensity } : null;
  },

  async _applied(
    start: (o: Pick<ApplySkyboxOptions, "cache" | "replace" | "onProgress">) => Promise<AppliedSkybox>,
    options: { cache?: boolean; replace?: boolean },
  ) {
    const stages: ApplyProgress[] = [];
    const previous = current;
    const previousShown: boolean[] = [];
    const t0 = performance.now();
    const { cache: useCache = true, replace = true } = options;
    textureWork = {};
    const next = await start({
      cache: useCache ? cache : false,
      replace: replace ? current : null,
      onProgress: (p) => {
        stages.push({ stage: p.stage, ...(p.part ? { part: p.part } : {}), ...(p.detail ? { detail: p.detail } : {}) });
        if (previous && p.stage !== "ready")
          previousShown.push(
            !previous.isDisposed &&
              (previous.environment === null || scene.environmentTexture === previous.environment) &&
              (previous.backgroundMesh?.isEnabled() ?? true),
          );
      },
    });
    const ms = Math.round(performance.now() - t0);
    const work = textureWork;
    if (previous && !replace) others.push(previous);
    current = next;
    sunChanges = 0;
    next.onSunChangedObservable.add(() => sunChanges++);
    cacheWrites.push(next.whenCached);
    return { ms, stages, previousShown, previousDisposed: previous?.isDisposed ?? null, textureWork: work, ...api.describe()! };
  },

  /** An apply expected to fail (optionally aborted after `abortAfterMs`): its error and what it left behind. */
  /** A load expected to fail: its error and what it left behind. */
  async loadFailing(url: string, options: LoadJsonOptions = {}) {
    const before = counts();
    const environmentBefore = scene.environmentTexture;
    const { cache: useCache = true, replace: _replace, ...rest } = options;
    let failure: { name: string; message: string } | null = null;
    try {
      current = await loadSkybox(scene, url, { ...(rest as LoadSkyboxOptions), cache: useCache ? cache : false, replace: current });
    } catch (error) {
      failure = { name: (error as Error).name, message: (error as Error).message };
    }
    await new Promise((r) => setTimeout(r, 0));
    return {
      error: failure,
      before,
      after: counts(),
      environmentKept: scene.environmentTexture === environmentBefore,
      currentDisposed: current?.isDisposed ?? null,
    };
  },

  async applyFailing(skybox: number | string, options: JsonOptions = {}, abortAfterMs = -1) {
    // What a call before this one still ends (its sliced steps, observers Babylon removes on a later task) is counted as after it.
    const before = await settledCounts();
    const environmentBefore = scene.environmentTexture;
    const controller = new AbortController();
    if (abortAfterMs >= 0) setTimeout(() => controller.abort(new Error("stopped by the test")), abortAfterMs);
    const { cache: useCache = true, ...rest } = options;
    let failure: { name: string; message: string; kind: string | null } | null = null;
    try {
      // On a fast machine it may finish before the abort: then it is the current skybox.
      current = await applySkybox(scene, skybox, { ...rest, cache: useCache ? cache : false, replace: current, signal: controller.signal });
      cacheWrites.push(current.whenCached);
    } catch (error) {
      const e = error as Error & { kind?: string };
      failure = { name: e.name, message: e.message, kind: e.kind ?? null };
    }
    // Babylon's Observable.remove() takes effect on a later task.
    return {
      error: failure,
      before,
      after: await settledCounts(),
      environmentKept: scene.environmentTexture === environmentBefore,
      currentDisposed: current?.isDisposed ?? null,
    };
  },

  /**
   * An apply aborted while the sun's worker holds its job (in the task after the worker says
   * it is ready, once the job is sent), then a second and a half for a late answer to land:
   * the error, the workers made and still running, and what the scene holds before and after.
   */
  async applyAbortedInSunWorker(skybox: number | string, options: JsonOptions = {}) {
    const before = await settledCounts();
    const made = workers.made;
    const controller = new AbortController();
    workers.onReady = () => setTimeout(() => controller.abort(new Error("stopped by the test")), 0);
    let failure: { name: string; message: string } | null = null;
    try {
      current = await applySkybox(scene, skybox, { ...options, cache: false, replace: current, signal: controller.signal });
    } catch (error) {
      failure = { name: (error as Error).name, message: (error as Error).message };
    } finally {
      workers.onReady = null;
    }
    await new Promise((r) => setTimeout(r, 1500));
    return { error: failure, workersMade: workers.made - made, liveWorkers: workers.live, before, after: await settledCounts() };
  },

  /**
   * The sun of an `.hdr` file (fetched from `url`) found both ways: by the library's sun
   * worker (`findSunOffThread`), and by `findSun` on this thread; with the workers made for it,
   * those still running after, and the steps the main thread's way named (`sun-finding`).
   */
  async findSunBothWays(url: string) {
    const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
    const made = workers.made;
    performance.clearMeasures("babylon-skybox:sun-finding");
    const offThread = await findSunOffThread({ bytes: bytes.slice(), owned: true });
    // The main thread's way names its step: none when the worker found it.
    const steps = performance.getEntriesByName("babylon-skybox:sun-finding").length;
    return { offThread, mainThread: findSun(decodeHdr(bytes)), workersMade: workers.made - made, liveWorkers: workers.live, steps };
  },

  /** The same, with no `Worker` in the page (as where none exists): the main thread's way. */
  async findSunWithoutWorkers(url: string) {
    const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
    const made = workers.made;
    const saved = window.Worker;
    performance.clearMeasures("babylon-skybox:sun-finding");
    // @ts-expect-error -- a page without Web Workers
    delete window.Worker;
    try {
      const finding = await findSunOffThread({ bytes, owned: true });
      return { finding, workersMade: workers.made - made, steps: performance.getEntriesByName("babylon-skybox:sun-finding").length };
    } finally {
      window.Worker = saved;
    }
  },

  /** What the current skybox holds. */
  describe() {
    const s = current;
    if (!s) return null;
    return {
      fromCache: s.fromCache,
      textures: s.textures.map((t) => `${t.getClassName()}:${t.name}`),
      meshes: s.meshes.map((m) => m.name),
      materials: s.materials.map((m) => `${m.getClassName()}:${m.name}`),
      environment: s.environment?.getClassName() ?? null,
      /** GPU textures (InternalTexture.uniqueId) of the environment and the background dome. */
      gpuTextures: {
        environment: seen(s.environment?.getInternalTexture()),
        dome: seen(s.backgroundMesh?.material?.getActiveTextures()[0]?.getInternalTexture()),
      },
      sceneEnvironmentIsOurs: scene.environmentTexture !== null && scene.environmentTexture === s.environment,
      backgroundMesh: s.backgroundMesh?.name ?? null,
      textureSizes: s.textures.map((t) => t.getSize().width),
      backdrop: s.backdrop
        ? {
            name: s.backdrop.name,
            position: s.backdrop.position.asArray(),
            scaling: s.backdrop.scaling.x,
            children: s.backdrop
              .getChildMeshes()
              .filter((m) => m.getTotalVertices() > 0)
              .map((m) => ({ vertices: m.getTotalVertices(), textured: Boolean(m.material?.getActiveTextures().length) })),
          }
        : null,
    };
  },

  /** Waits for the cache writes of every skybox applied so far. */
  async whenCached() {
    await Promise.all(cacheWrites.splice(0));
  },

  /** Resizes the canvas (CSS and drawing buffer) and sets the camera's vertical field of view (radians). */
  view(width: number, height: number, fov: number) {
    const canvas = engine.getRenderingCanvas()!;
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
    engine.setSize(width, height);
    camera.fov = fov;
  },

  /** Camera at `position`, looking in the panorama direction; the centre pixels' mean RGB. */
  async look(yawDeg: number, pitchDeg = 0, position: [number, number, number] = [0, 0, 0]) {
    metal.setEnabled(false);
    rough.setEnabled(false);
    camera.position.set(position[0], position[1], position[2] * sign);
    camera.setTarget(camera.position.add(direction(yawDeg, pitchDeg)));
    return renderAndRead(80, 80);
  },

  /**
   * Camera at `position` (world units), looking at `target`; renders a frame and returns where
   * each of `points` lands on the canvas (CSS pixels from its top left corner).
   */
  async lookFrom(position: [number, number, number], target: [number, number, number], points: [number, number, number][] = []) {
    metal.setEnabled(false);
    rough.setEnabled(false);
    camera.position.set(position[0], position[1], position[2]);
    camera.setTarget(new Vector3(target[0], target[1], target[2]));
    await scene.whenReadyAsync();
    frame();
    const width = engine.getRenderWidth();
    const height = engine.getRenderHeight();
    const viewport = camera.viewport.toGlobal(width, height);
    const scale = engine.getRenderingCanvas()!.clientWidth / width;
    return points.map(([x, y, z]) => {
      const screen = Vector3.Project(new Vector3(x, y, z), Matrix.IdentityReadOnly, scene.getTransformMatrix(), viewport);
      return [screen.x * scale, screen.y * scale];
    });
  },

  /** The two spheres' colours where they face the camera (looking at yaw 0). */
  async spheres() {
    metal.setEnabled(true);
    rough.setEnabled(true);
    camera.position.setAll(0);
    camera.setTarget(direction(0, 0));
    await scene.whenReadyAsync();
    // Sphere centres at x = +-0.55, z = 3 with fov 0.6: 0.296 of the width from the middle.
    const left = Math.round(80 - 0.296 * 160);
    const right = Math.round(80 + 0.296 * 160);
    const metalRgb = await renderAndRead(left, 80);
    const roughRgb = await renderAndRead(right, 80);
    metal.setEnabled(false);
    rough.setEnabled(false);
    return { metal: metalRgb, rough: roughRgb };
  },

  /**
   * What Babylon itself shows of the current environment (a skybox box sampling a clone of
   * it through its reflection matrix, so `rotationY` applies): the reference the background
   * and the backdrop must agree with. Needs an environment that clones (HDR, .env).
   */
  async reference(yawDeg: number, pitchDeg = 0) {
    const env = current?.environment as (BaseTexture & { rotationY: number }) | null | undefined;
    if (!env) throw new Error("no environment");
    current!.setVisible({ background: false, backdrop: false });
    const sky = env.clone() as BaseTexture & { rotationY: number };
    sky.coordinatesMode = Texture.SKYBOX_MODE;
    sky.rotationY = env.rotationY;
    const material = new StandardMaterial("reference", scene);
    material.reflectionTexture = sky;
    material.disableLighting = true;
    material.backFaceCulling = false;
    const box = CreateBox("reference", { size: 100 }, scene);
    box.material = material;
    box.infiniteDistance = true;
    try {
      return await api.look(yawDeg, pitchDeg);
    } finally {
      box.dispose();
      material.dispose();
      sky.dispose();
      current!.setVisible({ background: true, backdrop: true });
    }
  },

  /**
   * A white cylinder (1 unit across and high, standing on the ground: its shade has the same
   * length whatever side the sun is on) on a white ground 2 units below the camera, both
   * rough PBR (grey of `albedo` instead, so a real sun does not clip the display); `false`
   * removes them.
   */
  stage(on: boolean, albedo = 1) {
    for (const m of stage) m.dispose(false, true);
    stage = [];
    if (!on) return;
    const white = new PBRMaterial("stage-material", scene);
    white.albedoColor = new Color3(albedo, albedo, albedo);
    white.metallic = 0;
    white.roughness = 1;
    const ground = CreateBox("stage-ground", { width: 20, height: 0.1, depth: 20 }, scene);
    ground.position.y = -2.05;
    const box = CreateCylinder("stage-cylinder", { diameter: 1, height: 1, tessellation: 48 }, scene);
    box.position.y = -1.5;
    for (const m of [ground, box]) m.material = white;
    stage = [ground, box];
  },

  /**
   * Looks straight down at the stage from 8 units above the ground and reads the ground at
   * points `distance` units from the box's centre towards panorama yaw `yaw` (degrees).
   */
  async ground(points: { yaw: number; distance: number }[]) {
    camera.position.set(0, 6, 0);
    camera.setTarget(new Vector3(0, -2, 0.001));
    await scene.whenReadyAsync();
    // Shadow maps and cascades settle over a frame or two.
    for (let i = 0; i < 3; i++) frame();
    const viewport = camera.viewport.toGlobal(engine.getRenderWidth(), engine.getRenderHeight());
    const out: number[][] = [];
    for (const { yaw, distance } of points) {
      const world = direction(yaw, 0)
        .scale(distance)
        .add(new Vector3(0, -2, 0));
      const screen = Vector3.Project(world, Matrix.IdentityReadOnly, scene.getTransformMatrix(), viewport);
      // WebGL reads pixels bottom-up, WebGPU top-down.
      const y = engine.isWebGPU ? screen.y : engine.getRenderHeight() - screen.y;
      out.push(await renderAndRead(Math.round(screen.x), Math.round(y)));
    }
    return out;
  },

  /** The current skybox's sun light, and its angle to panorama yaw/pitch (degrees) when given. */
  sun(yaw?: number, pitch?: number) {
    const sun = current?.sun;
    if (!sun) return null;
    const towards = sun.direction;
    const angle = yaw === undefined ? null : (Math.acos(Math.min(1, Vector3.Dot(towards, direction(yaw, pitch ?? 0)))) * 180) / Math.PI;
    return {
      angle,
      /** Degrees above the horizon. */
      elevation: (Math.asin(Math.max(-1, Math.min(1, towards.y))) * 180) / Math.PI,
      enabled: sun.light.isEnabled(),
      intensity: sun.light.intensity,
      color: sun.light.diffuse.asArray(),
      generator: sun.shadowGenerator?.getClassName() ?? null,
      changes: sunChanges,
      balanced:
        scene.environmentTexture !== null &&
        scene.environmentTexture.sphericalPolynomial !== scene.environmentTexture.getInternalTexture()?._sphericalPolynomial,
      receiving: stage.map((m) => m.receiveShadows),
    };
  },

  counts,
  /** What the engine's GPU textures are (to name the one a leak left behind). */
  engineTextures: () =>
    engine.getLoadedTexturesCache().map((t) => ({
      id: t.uniqueId,
      source: t.source,
      url: t.url.slice(0, 80),
      cube: t.isCube,
      size: t.width,
      references: t._references,
    })),
  /** The engine, and the shader language of every material in the scene (ShaderLanguage: 0 GLSL, 1 WGSL). */
  engineInfo: () => ({
    name: engine.name,
    isWebGPU: engine.isWebGPU,
    shaderLanguages: Object.fromEntries(scene.materials.map((m) => [`${m.getClassName()}:${m.name}`, m.shaderLanguage])),
  }),
  setRotation: (radians: number) => current?.setRotation(radians),
  /**
   * How far the backdrop's vertices lie from the scene's origin (world units): the 5th, 50th
   * and 95th percentiles. A sphere at one radius has them equal; a depth-displaced mesh not.
   */
  backdropDistances() {
    const distances: number[] = [];
    const point = new Vector3();
    for (const mesh of current?.backdrop?.getChildMeshes() ?? []) {
      const positions = mesh.getVerticesData("position");
      if (!positions) continue;
      const world = mesh.computeWorldMatrix(true);
      for (let i = 0; i < positions.length; i += 3) {
        Vector3.TransformCoordinatesFromFloatsToRef(positions[i]!, positions[i + 1]!, positions[i + 2]!, world, point);
        distances.push(point.length());
      }
    }
    distances.sort((a, b) => a - b);
    const at = (q: number) => distances[Math.floor(q * (distances.length - 1))] ?? NaN;
    return { p5: at(0.05), p50: at(0.5), p95: at(0.95) };
  },

  setVisible: (parts: { lighting?: boolean; background?: boolean; backdrop?: boolean; sun?: boolean }) => current?.setVisible(parts),
  receiving: () => stage.map((m) => m.receiveShadows),
  disposeCurrent() {
    current?.dispose();
    current = null;
  },
  /** Shows the skyboxes applied with `replace: false` again (the last one lights the scene). */
  showOthers() {
    for (const s of others) s.setVisible({ lighting: true, background: true, backdrop: true });
  },
  /** Disposes the skyboxes applied with `replace: false`. */
  disposeOthers() {
    for (const s of others.splice(0)) s.dispose();
  },
  /** The engine's environment cache: entries (least recently used first), which are in use, bytes. */
  memory() {
    const memory = getEnvironmentCache(engine);
    return { keys: memory.keys(), inUse: memory.keys().map((k) => memory.isInUse(k)), bytes: memory.bytes, maxBytes: memory.maxBytes };
  },
  setMemoryBytes: (bytes: number) => void (getEnvironmentCache(engine).maxBytes = bytes),
  clearMemory: () => getEnvironmentCache(engine).clear(),
  /** Whether a GPU texture (by uniqueId) still exists: held by someone and not released. */
  gpuTextureAlive: (id: number) => (gpuTextures.get(id)?._references ?? 0) > 0,
  SkyboxCache,
  clearCache: () => cache.clear(),
  cacheSize: () => cache.size(),
  cacheKeys: () => cache.keys(),
};

declare global {
  interface Window {
    skyboxTest: typeof api;
    skyboxTestReady: boolean;
  }
}
window.skyboxTest = api;
window.skyboxTestReady = true;
