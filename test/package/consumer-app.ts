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

/** The README's install line, and the extras the local service needs. */
export const INSTALL = {
  core: ["@babylonjs/core@~9.25.0", "@babylonjs/loaders@~9.25.0"],
  pane: ["@babylonjs/inspector@~9.25.0"],
  localExtras: ["sharp"],
};

// Uses the core entry: client, status tracking and applySkybox (browser code, bundled by Vite).
const MAIN_TS = `import { Engine } from "@babylonjs/core/Engines/engine.js";
import { Scene } from "@babylonjs/core/scene.js";
import { applySkybox, createSkyboxClient, createStatusTracker, isSkyboxApiError, type Generation } from "babylon-skybox";

const canvas = document.createElement("canvas");
document.body.append(canvas);
const engine = new Engine(canvas);
const scene = new Scene(engine);
const client = createSkyboxClient({ baseUrl: "/skybox" });
const tracker = createStatusTracker({ client });

export async function generateAndApply(prompt: string): Promise<Generation> {
  try {
    const styles = await client.styles({ model_version: 3 });
    const skybox = await client.generate({ prompt, skybox_style_id: styles[0]!.id });
    const record = await tracker.watchGeneration(skybox.id).done;
    const applied = await applySkybox(scene, record, { lighting: { size: 128 } });
    applied.setRotation(Math.PI / 2);
    return record;
  } catch (error) {
    if (isSkyboxApiError(error)) console.warn(error.kind, error.message);
    throw error;
  }
}
engine.runRenderLoop(() => scene.render());
`;

// Uses the Inspector and analysis entries (type-checked; not part of the bundle, to keep the build short).
const PANE_TS = `import type { Scene } from "@babylonjs/core/scene.js";
import { ShowInspector } from "@babylonjs/inspector";
import { decodeHdr, detectSun, type DetectedSun } from "babylon-skybox/analysis";
import { loadSkyboxPaneService, showSkyboxInspector, type SkyboxPaneState } from "babylon-skybox/inspector";

export async function openPane(scene: Scene): Promise<SkyboxPaneState> {
  const { state, token } = await showSkyboxInspector(scene, { plan: "business", inspector: { themeMode: "dark" } });
  await token.dispose();
  ShowInspector(scene, { serviceDefinitions: [await loadSkyboxPaneService({ baseUrl: "/skybox" })] });
  state.form.set({ prompt: "alpine lake at dawn", styleId: 2 });
  return state;
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

/** Writes the app into `dir` (its package.json as the template has it, plus our dependencies). */
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
