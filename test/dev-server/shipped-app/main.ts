/**
 * The app of the shipping end-to-end test (test/dev-server/shipped.browser.test.ts), run in
 * the Vite dev server (the editor: the pane's state applies a skybox and saves it into the
 * project) and then built and served as static files (the shipped app: `loadSkybox`). The
 * same scene in both, read the same way, so their pixels compare.
 */
import { Engine } from "@babylonjs/core/Engines/engine.js";
import { Scene } from "@babylonjs/core/scene.js";
import { FreeCamera } from "@babylonjs/core/Cameras/freeCamera.js";
import { Color3, Color4 } from "@babylonjs/core/Maths/math.color.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { PBRMaterial } from "@babylonjs/core/Materials/PBR/pbrMaterial.js";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder.js";
import type { Mesh } from "@babylonjs/core/Meshes/mesh.js";
import { loadSkybox, type AppliedSkybox } from "../../../src/index.ts";

let engine: Engine;
let scene: Scene;
let camera: FreeCamera;
let spheres: Mesh[] = [];
let current: AppliedSkybox | null = null;
let editor: Awaited<ReturnType<typeof import("./editor.ts").openEditor>> | null = null;

function direction(yawDeg: number, pitchDeg: number): Vector3 {
  const [yaw, pitch] = [(yawDeg * Math.PI) / 180, (pitchDeg * Math.PI) / 180];
  return new Vector3(Math.sin(yaw) * Math.cos(pitch), Math.sin(pitch), Math.cos(yaw) * Math.cos(pitch));
}

async function read(x: number, y: number): Promise<number[]> {
  await scene.whenReadyAsync();
  scene.render();
  const px = (await engine.readPixels(x - 1, y - 1, 3, 3)) as Uint8Array;
  const sum = [0, 0, 0];
  for (let i = 0; i < 9; i++) for (let c = 0; c < 3; c++) sum[c]! += px[i * 4 + c]!;
  return sum.map((s) => Math.round(s / 9));
}

function sphere(name: string, x: number, metallic: number, roughness: number): Mesh {
  const mesh = CreateSphere(name, { diameter: 0.8, segments: 32 }, scene);
  mesh.position.set(x, 0, 3);
  const material = new PBRMaterial(`${name}-material`, scene);
  material.metallic = metallic;
  material.roughness = roughness;
  material.albedoColor = Color3.White();
  mesh.material = material;
  return mesh;
}

const app = {
  setup() {
    engine = new Engine(document.getElementById("scene") as HTMLCanvasElement, false, {
      preserveDrawingBuffer: true,
      stencil: true,
      antialias: false,
    });
    scene = new Scene(engine);
    scene.clearColor = new Color4(0, 0, 0, 1);
    camera = new FreeCamera("camera", Vector3.Zero(), scene);
    camera.fov = 0.6;
    camera.minZ = 0.1;
    camera.maxZ = 2000;
    spheres = [sphere("metal", -0.55, 1, 0.15), sphere("rough", 0.55, 0, 1)];
    scene.render();
  },

  /** What the scene shows: the spheres (lighting), the sky in six directions (background and backdrop), the sun light. */
  async pixels() {
    camera.setTarget(direction(0, 0));
    for (const s of spheres) s.setEnabled(true);
    const lit = [await read(Math.round(80 - 0.296 * 160), 80), await read(Math.round(80 + 0.296 * 160), 80)];
    for (const s of spheres) s.setEnabled(false);
    const sky: number[][] = [];
    for (const [yaw, pitch] of [
      [0, 15],
      [90, 5],
      [180, 25],
      [270, 10],
      [45, -8],
      [225, -15],
    ] as const) {
      camera.setTarget(direction(yaw, pitch));
      sky.push(await read(80, 80));
    }
    const sun = current?.sun;
    return {
      lit,
      sky,
      sun: sun ? { direction: sun.direction.asArray(), intensity: sun.light.intensity } : null,
      environmentIntensity: scene.environmentIntensity,
    };
  },

  /**
   * The editor (dev server only; the build leaves its code out): the pane's state generates and
   * applies a skybox, the scene's pixels are read, then the Inspector opens with the pane, for
   * the test to save the skybox with the pane's own controls.
   */
  async editor(prompt: string) {
    if (!__SKYBOX_EDITOR__) throw new Error("The editor runs only in the dev server");
    const { openEditor } = await import("./editor.ts");
    editor = await openEditor(scene, prompt);
    current = editor.applied;
    return { pixels: await app.pixels(), saveToProject: editor.saveToProject, backdrop: editor.backdrop };
  },

  /** Opens the Inspector with the pane on the editor's state. */
  async inspector() {
    await editor!.showInspector();
  },

  /** The shipped app: the saved skybox from static files. */
  async shipped(url: string) {
    const stages: string[] = [];
    current = await loadSkybox(scene, url, { onProgress: (p) => stages.push(`${p.stage}${p.detail ? `: ${p.detail}` : ""}`) });
    return { stages, pixels: await app.pixels() };
  },
};

/** True in the dev server, false in the build (Vite's `define`): the build has no editor. */
declare const __SKYBOX_EDITOR__: boolean;

declare global {
  interface Window {
    app: typeof app;
  }
}
window.app = app;
