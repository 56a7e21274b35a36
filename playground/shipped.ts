import { Engine } from "@babylonjs/core/Engines/engine";
import { loadSkybox } from "babylon-skybox";
import { createShowcaseScene } from "./scene.ts";

// A skybox shipped with the app: static files under public/skyboxes/<slug>/, written by the
// pane's "Save to project" (npm run dev) or `npx babylon-skybox save <id> --out
// playground/public/skyboxes/<slug>`. ?skybox=<url of a skybox.json> picks another.
const url = new URLSearchParams(location.search).get("skybox") ?? "/skyboxes/example/skybox.json";
/** Shows a status line: strings go in as text (an error's words are never parsed as HTML). */
const status = (...parts: (string | Node)[]) => document.getElementById("status")!.replaceChildren(...parts);
const element = (tag: string, text: string, href?: string) =>
  Object.assign(document.createElement(tag), { textContent: text }, href ? { href } : {});
const pane = () => element("a", "pane", "./index.html");

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
  status(
    "Loaded ",
    element("code", url),
    `: ${sky.record.title ?? sky.record.id}, from static files only · `,
    element("a", "Inspector pane", "./index.html"),
  );
  Object.assign(window, { playground: { engine, scene, sky } });
} catch (error) {
  status(
    element("span", (error as Error).message),
    document.createElement("br"),
    "Save a skybox first: apply one in the ",
    pane(),
    " and press ",
    element("b", "Save to project"),
    " with the folder name ",
    element("code", "example"),
    ", or run ",
    element("code", "npx babylon-skybox save <id> --out playground/public/skyboxes/example --proxy http://localhost:5173"),
    " while ",
    element("code", "npm run dev"),
    " runs.",
  );
}
