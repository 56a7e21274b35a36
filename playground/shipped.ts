import { Engine } from "@babylonjs/core/Engines/engine";
import { loadSkybox } from "babylon-skybox";
import { createShowcaseScene } from "./scene.ts";

// A skybox shipped with the app: static files under public/skyboxes/<slug>/, written by the
// pane's "Save to project" (npm run dev) or `npx babylon-skybox save <id> --out
// playground/public/skyboxes/<slug>`. ?skybox=<url of a skybox.json> picks another.
const url = new URLSearchParams(location.search).get("skybox") ?? "/skyboxes/example/skybox.json";
const status = (html: string) => (document.getElementById("status")!.innerHTML = html);

// The proxy switched off: this page may not reach it (or any API), only static files.
const fetchStatic = window.fetch.bind(window);
window.fetch = (input, init) => {
  const target = new URL(input instanceof Request ? input.url : String(input), location.href);
  if (target.pathname.startsWith("/skybox/")) return Promise.reject(new Error(`shipped.html reaches no proxy (${target.pathname})`));
  return fetchStatic(input, init);
};

const engine = new Engine(document.getElementById("scene") as HTMLCanvasElement, true, { preserveDrawingBuffer: true });
const { scene, sun } = createShowcaseScene(engine);
engine.runRenderLoop(() => scene.render());
try {
  const sky = await loadSkybox(scene, url, { sun: { replaces: [sun] }, onProgress: (p) => status(`${p.stage} ${p.detail ?? ""}`) });
  status(`Loaded <code>${url}</code>: ${sky.record.title ?? sky.record.id}, from static files only · <a href="./index.html">Inspector pane</a>`);
  Object.assign(window, { playground: { engine, scene, sky } });
} catch (error) {
  status(`${(error as Error).message}<br>Save a skybox first: apply one in the <a href="./index.html">pane</a> and press <b>Save to project</b> with the folder name <code>example</code>, or run <code>npx babylon-skybox save &lt;id&gt; --out playground/public/skyboxes/example --proxy http://localhost:5173</code> while <code>npm run dev</code> runs.`);
}
