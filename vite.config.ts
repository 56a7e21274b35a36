import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import type { LocalServiceOptions } from "./src/local/index.ts";
import { skyboxProxy } from "./src/dev-server/vite-plugin.ts";
import { INSPECTOR_EDITORS, playgroundResolve } from "./playground/vite-plugins.ts";

const path = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * The local Skybox service started by the proxy plugin when SKYBOX_API_KEY is not set.
 * Unset, it has the plugin's defaults (DEV_LOCAL_DEFAULTS: lifecycle 3x faster, images at
 * half size, so a first skybox completes in about 10 s); SKYBOX_LOCAL_SPEED,
 * SKYBOX_LOCAL_IMAGE_SCALE, SKYBOX_LOCAL_DATA_DIR and SKYBOX_LOCAL_PLAN override them
 * (SKYBOX_LOCAL_SPEED=1 SKYBOX_LOCAL_IMAGE_SCALE=1: the spec's realistic service).
 */
function localOptions(env = process.env): LocalServiceOptions {
  const number = (v: string | undefined) => (v ? Number(v) : undefined);
  const options: LocalServiceOptions = {};
  if (env.SKYBOX_LOCAL_SPEED) options.speed = number(env.SKYBOX_LOCAL_SPEED)!;
  if (env.SKYBOX_LOCAL_IMAGE_SCALE) options.imageScale = number(env.SKYBOX_LOCAL_IMAGE_SCALE)!;
  if (env.SKYBOX_LOCAL_DATA_DIR) options.dataDir = env.SKYBOX_LOCAL_DATA_DIR;
  if (env.SKYBOX_LOCAL_PLAN) options.plan = env.SKYBOX_LOCAL_PLAN as LocalServiceOptions["plan"];
  return options;
}

// The playground is the Vite root (`npm run dev`: the Inspector with the Skybox pane, the proxy
// and, with no SKYBOX_API_KEY, the offline local service). Tests live in test/ and run in Node
// (browser tests drive a real Chromium through playwright-core against built pages).
export default defineConfig({
  root: "playground",
  // Vitest runs on this config too: no proxy (and no local service) for unit tests.
  plugins: process.env.VITEST ? [] : [react(), playgroundResolve(), skyboxProxy({ local: localOptions() })],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    chunkSizeWarningLimit: 10_000,
    rolldownOptions: {
      input: {
        main: path("./playground/index.html"),
        programmatic: path("./playground/programmatic.html"),
        shipped: path("./playground/shipped.html"),
      },
      external: process.env.SKYBOX_EXTERNAL_EDITORS === "1" ? [INSPECTOR_EDITORS] : [],
    },
  },
  test: {
    root: ".",
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
  },
});
