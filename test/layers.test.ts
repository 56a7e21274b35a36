/**
 * The layer rule of the design, checked on the import graph of src/: each layer imports only
 * those below it, and what runs in a browser never reaches Node-only code.
 */
import { resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { readImportGraph, type ImportEdge } from "./helpers/import-graph.ts";

const REPO = resolve(import.meta.dirname, "..");

/** What each layer (a folder of src/, or the root entry file) may import besides itself. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  api: [],
  status: ["api"],
  scene: ["api", "status"],
  inspector: ["api", "status", "scene"],
  proxy: ["api"],
  local: ["api"],
  // The dev-server wiring and the CLI start the proxy and the local service together.
  "dev-server": ["api", "proxy", "local"],
  // `save` requests exports as applySkybox does and finds the sun with the pure detector (Node-safe scene modules).
  cli: ["api", "status", "scene", "proxy", "local", "dev-server"],
  "index.ts": ["api", "status", "scene"],
};

const BROWSER_LAYERS = ["api", "status", "scene", "inspector", "index.ts"];
const BROWSER_ENTRIES = ["src/index.ts", "src/inspector/index.ts"];
/** Packages that run only in Node (besides Node's built-ins, `node:*`). */
const NODE_ONLY_PACKAGES = ["sharp", "ws", "@hono/node-server", "@ffmpeg-installer/ffmpeg", "@redis/client"];

const graph = readImportGraph(REPO);
const layerOf = (file: string) => file.split("/")[1]!;
const show = (edge: ImportEdge) => `${edge.from} -> ${edge.file ?? edge.specifier}`;
const isNodeOnly = (edge: ImportEdge) => edge.pkg !== null && (edge.pkg.startsWith("node:") || NODE_ONLY_PACKAGES.includes(edge.pkg));

describe("the import graph of src/", () => {
  test("is read whole: every file is in a known layer, every relative import names a file", () => {
    expect(graph.files.length).toBeGreaterThan(100);
    expect(graph.edges.length).toBeGreaterThan(graph.files.length);
    expect(graph.files.filter((f) => !(layerOf(f) in MAY_IMPORT))).toEqual([]);
    expect(graph.missing.map(show)).toEqual([]);
  });

  test("each layer imports only itself and the layers below it", () => {
    const broken = graph.edges.filter((edge) => {
      if (edge.file === null) return false;
      const [from, to] = [layerOf(edge.from), layerOf(edge.file)];
      return from !== to && !MAY_IMPORT[from]!.includes(to);
    });
    expect(broken.map(show)).toEqual([]);
  });

  test("the browser layers and all the browser entry points reach use no Node built-in and no Node-only package", () => {
    const browserFiles = new Set([...graph.files.filter((f) => BROWSER_LAYERS.includes(layerOf(f))), ...reachableFrom(BROWSER_ENTRIES)]);
    expect(graph.edges.filter((edge) => browserFiles.has(edge.from) && isNodeOnly(edge)).map(show)).toEqual([]);
    // A dynamic import the graph cannot follow could hide Node code.
    expect(graph.unresolvable.filter((u) => browserFiles.has(u.from))).toEqual([]);
  });
});

function reachableFrom(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...entries];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const edge of graph.edges) if (edge.from === file && edge.file !== null) queue.push(edge.file);
  }
  return seen;
}
