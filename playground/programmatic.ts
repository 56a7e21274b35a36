import { Engine } from "@babylonjs/core/Engines/engine";
import { applySkybox, createSkyboxClient } from "babylon-skybox";
import { createShowcaseScene } from "./scene.ts";

const engine = new Engine(document.getElementById("scene") as HTMLCanvasElement, true, { preserveDrawingBuffer: true });
const { scene } = createShowcaseScene(engine);
engine.runRenderLoop(() => scene.render());
const status = (text: string) => (document.getElementById("status")!.firstChild!.textContent = `${text} · `);

// The programmatic path, all of it: a client behind the proxy (no key in the browser), one
// generation, and applySkybox, which waits for it to complete and lights the scene.
// ?id=<skybox id> applies an existing skybox instead of generating one.
const client = createSkyboxClient({ baseUrl: "/skybox" });
const id = new URLSearchParams(location.search).get("id");
const [style] = await client.styles({ model_version: 3 });
const skybox = id ? Number(id) : await client.generate({ prompt: "alpine lake at dawn, mist over the water", skybox_style_id: style!.id });
const applied = await applySkybox(scene, skybox, { client, backdrop: false, onProgress: (p) => status(`${p.stage} ${p.detail ?? ""}`) });
status(`Applied ${applied.record.title ?? applied.record.id}`);

Object.assign(window, { playground: { engine, scene, applied } });
