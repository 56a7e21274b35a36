import { Engine } from "@babylonjs/core/Engines/engine";
import { createShowcaseScene } from "./scene.ts";

const canvas = document.getElementById("scene") as HTMLCanvasElement;
const engine = new Engine(canvas, true, { preserveDrawingBuffer: true, stencil: true });
const scene = createShowcaseScene(engine);
engine.runRenderLoop(() => scene.render());
window.addEventListener("resize", () => engine.resize());
