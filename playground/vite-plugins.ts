import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";

const path = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * Lets the playground import the package by its published names (`babylon-skybox`,
 * `babylon-skybox/inspector`) from the sources, and keeps one copy of React and Fluent UI
 * (the Inspector's and the pane's must be the same). Used by vite.config.ts and by the
 * browser test's build of the playground.
 */
export function playgroundResolve(): Plugin {
  return {
    name: "babylon-skybox-playground-resolve",
    config: () => ({
      resolve: {
        alias: [
          { find: /^babylon-skybox\/inspector$/, replacement: path("../src/inspector/index.ts") },
          { find: /^babylon-skybox$/, replacement: path("../src/index.ts") },
        ],
        dedupe: ["react", "react-dom", "@fluentui/react-components"],
      },
    }),
  };
}

/** The Inspector's node and GUI editors load only when a user opens one; builds that leave them out are 3x faster. */
export const INSPECTOR_EDITORS =
  /^@babylonjs\/(node-editor|node-geometry-editor|node-particle-editor|node-render-graph-editor|gui-editor)(\/|$)/;
