/**
 * A fresh user app, made the way a user makes one: create-vite's vanilla-ts template (from
 * the create-vite package, so its tsconfig is the real one: strict, verbatimModuleSyntax,
 * erasableSyntaxOnly, noUnusedLocals, moduleResolution bundler), then the README's install
 * lines, then code that uses every entry point as the README shows.
 */
import { cpSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const template = join(dirname(createRequire(import.meta.url).resolve("create-vite/package.json")), "template-vanilla-ts");

/** The create-vite version the template comes from (written into the test's log). */
export const createViteVersion = (JSON.parse(readFileSync(join(template, "..", "package.json"), "utf8")) as { version: string }).version;

/** The Babylon releases one app is made with (core, loaders and the Inspector are published apart). */
export interface BabylonVersions {
  core: string;
  loaders: string;
  inspector: string;
}

/** The README's install lines at `versions`, and the extras the local service needs. */
export function installLines(versions: BabylonVersions) {
  return {
    core: [`@babylonjs/core@${versions.core}`, `@babylonjs/loaders@${versions.loaders}`],
    pane: [`@babylonjs/inspector@${versions.inspector}`],
    localExtras: ["sharp"],
  };
}

// Uses the core entry: client, status tracking and applySkybox (browser code, bundled by Vite),
// and gives the test a way in: the Babylon release that runs, a skybox applied with the canvas
// read before and after, the sun light's shade on a ground, and the pane (its own chunk,
// loaded on demand as the README shows).
const MAIN_TS = `import { Engine } from "@babylonjs/core/Engines/engine.js";
import { FreeCamera } from "@babylonjs/core/Cameras/freeCamera.js";
import { PBRMaterial } from "@babylonjs/core/Materials/PBR/pbrMaterial.js";
import { Color3 } from "@babylonjs/core/Maths/math.color.js";
import { Matrix, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder.js";
import { CreateCylinder } from "@babylonjs/core/Meshes/Builders/cylinderBuilder.js";
import { Scene } from "@babylonjs/core/scene.js";
import { applySkybox, createSkyboxClient, createStatusTracker, isSkyboxApiError, type AppliedSkybox, type ApplySkyboxOptions, type Generation } from "babylon-skybox";

const canvas = document.createElement("canvas");
canvas.width = 64;
canvas.height = 64;
document.body.append(canvas);
const engine = new Engine(canvas, false, { preserveDrawingBuffer: true });
const scene = new Scene(engine);
const camera = new FreeCamera("camera", Vector3.Zero(), scene);
const client = createSkyboxClient({ baseUrl: "/skybox" });
const tracker = createStatusTracker({ client });
let current: AppliedSkybox | undefined;

export async function generateAndApply(prompt: string, options: ApplySkyboxOptions = {}): Promise<Generation> {
  try {
    const styles = await client.styles({ model_version: 3 });
    const skybox = await client.generate({ prompt, skybox_style_id: styles[0]!.id });
    const record = await tracker.watchGeneration(skybox.id).done;
    current = await applySkybox(scene, record, { lighting: { size: 64, quality: 16 }, backdrop: false, replace: current, ...options });
    current.setRotation(Math.PI / 2);
    return record;
  } catch (error) {
    if (isSkyboxApiError(error)) console.warn(error.kind, error.message);
    throw error;
  }
}

async function pixel(x: number, y: number): Promise<number[]> {
  await scene.whenReadyAsync();
  // Shadow maps settle over a frame or two.
  for (let i = 0; i < 3; i++) scene.render();
  return [...((await engine.readPixels(x, y, 1, 1)) as Uint8Array).slice(0, 3)];
}

const centre = () => pixel(31, 31);

/**
 * A grey cylinder on a grey ground, seen from above, under the sun light of a skybox: the
 * ground 0.75 units from the cylinder's axis away from the sun and towards it.
 */
async function sunShade(prompt: string) {
  await generateAndApply(prompt, { lighting: { size: 64, quality: 16, resolution: "2K" }, sun: { shadowMapSize: 1024 } });
  const sun = current!.sun;
  if (!sun) return null;
  const grey = new PBRMaterial("grey", scene);
  grey.albedoColor = new Color3(0.3, 0.3, 0.3);
  grey.metallic = 0;
  grey.roughness = 1;
  const ground = CreateBox("ground", { width: 20, height: 0.1, depth: 20 }, scene);
  ground.position.y = -2.05;
  const cylinder = CreateCylinder("cylinder", { diameter: 1, height: 1, tessellation: 48 }, scene);
  cylinder.position.y = -1.5;
  ground.material = cylinder.material = grey;
  camera.position.set(0, 6, 0);
  camera.setTarget(new Vector3(0, -2, 0.001));
  scene.render();
  const viewport = camera.viewport.toGlobal(engine.getRenderWidth(), engine.getRenderHeight());
  const across = new Vector3(sun.direction.x, 0, sun.direction.z).normalize().scale(0.75);
  const read = (at: Vector3) => {
    const screen = Vector3.Project(at, Matrix.IdentityReadOnly, scene.getTransformMatrix(), viewport);
    return pixel(Math.round(screen.x), Math.round(engine.getRenderHeight() - screen.y));
  };
  const axis = new Vector3(0, -2, 0);
  const elevation = (Math.asin(sun.direction.y) * 180) / Math.PI;
  // The main thread's way of finding the sun (where no worker starts) names its step in the timeline.
  const onMainThread = performance.getEntriesByName("babylon-skybox:sun-finding").length;
  return { elevation, intensity: sun.light.intensity, onMainThread, away: await read(axis.subtract(across)), towards: await read(axis.add(across)) };
}

Object.assign(window, {
  consumer: {
    babylon: Engine.Version,
    async apply(prompt: string) {
      const before = await centre();
      const record = await generateAndApply(prompt);
      return { id: record.id, before, after: await centre(), environment: scene.environmentTexture?.getClassName() ?? null };
    },
    sunShade,
    async openPane() {
      const { openPane } = await import("./pane.ts");
      await openPane(scene);
    },
  },
});
`;

// Uses the Inspector and analysis entries (bundled as the chunk main.ts loads on demand):
// openPane runs in the test; openOwnInspector (the README's own-ShowInspector form) is type-checked.
const PANE_TS = `import type { Scene } from "@babylonjs/core/scene.js";
import { ShowInspector } from "@babylonjs/inspector";
import { decodeHdr, detectSun, type DetectedSun } from "babylon-skybox/analysis";
import { loadSkyboxPaneService, showSkyboxInspector, type SkyboxPaneState } from "babylon-skybox/inspector";

export async function openPane(scene: Scene): Promise<SkyboxPaneState> {
  const { state } = await showSkyboxInspector(scene, { plan: "business", inspector: { themeMode: "dark" } });
  state.form.set({ prompt: "alpine lake at dawn", styleId: 2 });
  return state;
}

export async function openOwnInspector(scene: Scene): Promise<void> {
  ShowInspector(scene, { serviceDefinitions: [await loadSkyboxPaneService({ baseUrl: "/skybox" })] });
}

export function sunOf(hdri: Uint8Array): DetectedSun | null {
  return detectSun(decodeHdr(hdri));
}
`;

// The README's Vite plugin line.
const VITE_CONFIG = `import { defineConfig } from "vite";
import skyboxProxy from "babylon-skybox/vite";

export default defineConfig({ plugins: [skyboxProxy()] });
`;

// A plain Node server mounting the proxy (no TypeScript loader), in front of any upstream.
const SERVER_MJS = `import { createServer } from "node:http";
import { createSkyboxProxyMiddleware } from "babylon-skybox/proxy";

const skybox = createSkyboxProxyMiddleware({ apiKey: process.env.SKYBOX_API_KEY, upstream: process.env.SKYBOX_UPSTREAM });
const server = createServer((req, res) => skybox(req, res, () => { res.statusCode = 404; res.end("not found"); }));
server.listen(0, "127.0.0.1", () => console.log(JSON.stringify({ url: \`http://127.0.0.1:\${server.address().port}\` })));
`;

/** Writes the app into `dir` (its package.json as the template has it, plus the tarball). */
export function writeConsumerApp(dir: string, tarball: string): void {
  cpSync(template, dir, { recursive: true });
  renameSync(join(dir, "_gitignore"), join(dir, ".gitignore"));
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Record<string, unknown>;
  pkg.name = "skybox-consumer";
  pkg.dependencies = { "babylon-skybox": `file:${tarball}` };
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  mkdirSync(join(dir, "src"), { recursive: true });
  writeFileSync(join(dir, "src", "main.ts"), MAIN_TS);
  writeFileSync(join(dir, "src", "pane.ts"), PANE_TS);
  writeFileSync(join(dir, "vite.config.ts"), VITE_CONFIG);
  writeFileSync(join(dir, "server.mjs"), SERVER_MJS);
}
