import type { AbstractEngine } from "@babylonjs/core/Engines/abstractEngine";
import { Engine } from "@babylonjs/core/Engines/engine";
import type { InspectorOptions } from "@babylonjs/inspector";
import { PLANS, type Plan } from "babylon-skybox";
import { loadSkyboxPaneService, showSkyboxInspector } from "babylon-skybox/inspector";
import { createShowcaseScene } from "./scene.ts";

// Query options: ?theme=light|dark; ?plan=free|essential|standard|business (what the pane
// assumes of the account); ?teaching (the Inspector's teaching popovers, off otherwise: they
// take the keyboard focus on a first visit and swallow what is typed into the prompt); ?scale=2 (render at half
// resolution: software WebGL in tests); ?bare (the Inspector without the Skybox pane) and
// ?noselect (with the pane, Properties shown first), to measure what the pane adds;
// ?engine=webgpu (a WebGPUEngine instead of WebGL 2); ?own (the pane added to a ShowInspector
// call of the page's own, as the README shows, instead of showSkyboxInspector).
const query = new URLSearchParams(location.search);
const theme = query.get("theme");
const themeMode = theme === "light" || theme === "dark" ? theme : undefined;

const canvas = document.getElementById("scene") as HTMLCanvasElement;
const engine =
  query.get("engine") === "webgpu"
    ? await createWebGpuEngine(canvas)
    : new Engine(canvas, true, { preserveDrawingBuffer: true, stencil: true });
engine.setHardwareScalingLevel(Number(query.get("scale") ?? 1) || 1);
const { scene, sun } = createShowcaseScene(engine);
engine.runRenderLoop(() => scene.render());
window.addEventListener("resize", () => engine.resize());

const inspector: Partial<InspectorOptions> = { ...(themeMode ? { themeMode } : {}), disableTeachingMoments: !query.has("teaching") };
const plan = PLANS.find((p): p is Plan => p === query.get("plan")) ?? null;
const handle = query.has("bare")
  ? { token: (await import("@babylonjs/inspector")).ShowInspector(scene, inspector), state: null }
  : query.has("own")
    ? {
        token: (await import("@babylonjs/inspector")).ShowInspector(scene, {
          ...inspector,
          serviceDefinitions: [await loadSkyboxPaneService({ plan, sunReplaces: [sun] })],
        }),
        state: null,
      }
    : await showSkyboxInspector(scene, { plan, inspector, select: !query.has("noselect"), sunReplaces: [sun] });

// For the browser test and for poking at the scene from the console. `reopen` shows the
// Inspector again after it was closed: the pane's state (form, jobs, history) is still there.
const reopen = async () =>
  Object.assign(playground, { inspector: (await showSkyboxInspector(scene, { plan, inspector, sunReplaces: [sun] })).token });
const playground = { engine, scene, sun, pane: handle.state, inspector: handle.token, reopen };
Object.assign(window, { playground });

/**
 * A WebGPUEngine compiling WGSL only: Babylon's materials have WGSL shaders, and with no path to
 * glslang and twgsl a GLSL one fails in the console instead of fetching them from Babylon's CDN
 * (the playground runs offline).
 */
async function createWebGpuEngine(target: HTMLCanvasElement): Promise<AbstractEngine> {
  const { WebGPUEngine } = await import("@babylonjs/core/Engines/webgpuEngine");
  if (!(await WebGPUEngine.IsSupportedAsync))
    throw new Error("?engine=webgpu: this browser has no WebGPU (Chromium needs --enable-unsafe-webgpu on Linux)");
  const gpu = new WebGPUEngine(target, {
    antialias: true,
    stencil: true,
    glslangOptions: { jsPath: "", wasmPath: "" },
    twgslOptions: { jsPath: "", wasmPath: "" },
  });
  await gpu.initAsync();
  return gpu;
}
