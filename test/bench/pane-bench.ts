/**
 * What the Inspector pane costs: its code (min+gzip, peers and the core package excluded;
 * the core entry checked not to contain any of it) and the time it adds before the pane is
 * visible in the Inspector, in headless Chromium with software WebGL.
 */
import react from "@vitejs/plugin-react";
import { build, type Plugin } from "esbuild";
import { relative, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { INSPECTOR_EDITORS, playgroundResolve } from "../../playground/vite-plugins.ts";
import type { Page } from "playwright-core";
import { launchBrowser, servePages } from "../browser/harness.ts";
import { bundleSize } from "./bundle-size.ts";
import { percentile } from "./percentiles.ts";

const REPO = resolve(import.meta.dirname, "../..");
const PEERS = ["@babylonjs/*", "react", "react-dom", "react/*", "@fluentui/*"];
const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

/** The core package's own code (api, status, scene) left out: an app using the pane already has it. */
const coreExternal: Plugin = {
  name: "core-external",
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      const path = resolve(args.resolveDir, args.path);
      return /\/src\/(api|status|scene)\//.test(path) ? { path, external: true } : undefined;
    });
  },
};

interface ChunkSizes {
  entry: { min: number; gzip: number };
  lazy: { min: number; gzip: number };
}

/**
 * The inspector entry split as a bundler splits it: what `import "babylon-skybox/inspector"`
 * loads (the entry chunk and its static imports), and what loads on demand.
 */
async function inspectorChunks(): Promise<ChunkSizes> {
  const result = await build({
    entryPoints: [resolve(REPO, "src/inspector/index.ts")],
    bundle: true,
    splitting: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    outdir: resolve(REPO, "node_modules/.cache/pane-bench"),
    write: false,
    metafile: true,
    logLevel: "silent",
    jsx: "automatic",
    external: PEERS,
    plugins: [coreExternal],
  });
  const outputs = result.metafile.outputs;
  const entry = Object.keys(outputs).find((k) => outputs[k]!.entryPoint?.endsWith("src/inspector/index.ts"))!;
  const eager = new Set<string>();
  const visit = (key: string) => {
    if (eager.has(key)) return;
    eager.add(key);
    for (const i of outputs[key]?.imports ?? []) if (i.kind === "import-statement" && !i.external) visit(i.path);
  };
  visit(entry);
  const sizes: ChunkSizes = { entry: { min: 0, gzip: 0 }, lazy: { min: 0, gzip: 0 } };
  for (const file of result.outputFiles) {
    const target = eager.has(relative(process.cwd(), file.path)) ? sizes.entry : sizes.lazy;
    target.min += file.contents.byteLength;
    target.gzip += gzipSync(file.contents, { level: 9 }).byteLength;
  }
  return sizes;
}

/** Source files of src/inspector in a bundle of the core entry (there must be none). */
async function inspectorFilesInCore(): Promise<string[]> {
  const result = await build({
    entryPoints: [resolve(REPO, "src/index.ts")],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    metafile: true,
    logLevel: "silent",
    external: PEERS,
  });
  return Object.keys(result.metafile.inputs).filter((f) => f.includes("src/inspector/"));
}

/** ms from navigation until each selector is visible. */
async function loadTimes(page: Page, url: string, selectors: string[]): Promise<number[]> {
  const t0 = performance.now();
  await page.goto(url);
  const out: number[] = [];
  for (const selector of selectors) {
    await page.locator(selector).first().waitFor({ timeout: 120_000 });
    out.push(performance.now() - t0);
  }
  return out;
}

/**
 * Medians over `runs` loads of the built playground: the bare Inspector, the Inspector with
 * the pane registered but not selected, and with the pane selected (after one warm-up load
 * of each), each in a fresh browser context.
 */
interface Spread {
  p25: number;
  p50: number;
  p75: number;
}

async function timeToVisible(url: string, runs: number): Promise<{ bare: Spread; unselected: Spread; pane: Spread }> {
  const browser = await launchBrowser();
  const variants = [
    { query: "&bare", selectors: [SHELL], times: [] as number[] },
    { query: "&noselect", selectors: [SHELL], times: [] as number[] },
    { query: "", selectors: [PANE], times: [] as number[] },
  ];
  try {
    for (let i = -1; i < runs; i++)
      // Rotated each round: the page loaded right after another one closes runs slower.
      for (const v of [...variants.slice((i + 3) % 3), ...variants.slice(0, (i + 3) % 3)]) {
        const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
        // Quarter-resolution rendering: the scene's software WebGL would otherwise dominate the noise.
        const [ms] = await loadTimes(page, `${url}/?test&scale=4${v.query}`, v.selectors);
        await page.close();
        if (i >= 0) v.times.push(ms!);
      }
  } finally {
    await browser.close();
  }
  const [bare, unselected, pane] = variants.map((v) => ({
    p25: percentile(v.times, 25),
    p50: percentile(v.times, 50),
    p75: percentile(v.times, 75),
  }));
  return { bare: bare!, unselected: unselected!, pane: pane! };
}

/** The Inspector with its right pane's first tab rendered (Properties shows the scene). */
const SHELL = "text=Scene Explorer";
const PANE = "[data-testid=skybox-style-2]";

/** The pane's figures, one line each. */
export async function paneBench(): Promise<string[]> {
  const [chunks, leaked, core] = await Promise.all([inspectorChunks(), inspectorFilesInCore(), bundleSize("src/index.ts")]);
  const lines = [
    `inspector entry (babylon-skybox/inspector, loaded on import): ${kb(chunks.entry.min)} min, ${kb(chunks.entry.gzip)} min+gzip`,
    `pane chunks (loaded by showSkyboxInspector): ${kb(chunks.lazy.min)} min, ${kb(chunks.lazy.gzip)} min+gzip`,
    `core entry (babylon-skybox): ${kb(core.gzip)} min+gzip, ${leaked.length} inspector modules in it${leaked.length ? `: ${leaked.join(", ")}` : ""}`,
  ];
  const pages = await servePages({
    root: resolve(REPO, "playground"),
    plugins: [react(), playgroundResolve()],
    external: [INSPECTOR_EDITORS],
  });
  try {
    const runs = 8;
    const { bare, unselected, pane } = await timeToVisible(pages.url, runs);
    const signed = (n: number) => `${n >= 0 ? "+" : "−"}${Math.abs(n).toFixed(0)} ms`;
    const spread = (s: Spread) => `${s.p50.toFixed(0)} ms (p25–p75 ${s.p25.toFixed(0)}–${s.p75.toFixed(0)})`;
    lines.push(
      `load to Inspector visible, without the pane: ${spread(bare)}`,
      `load to Inspector visible, pane registered but not selected: ${spread(unselected)}, ${signed(unselected.p50 - bare.p50)}`,
      `load to Skybox pane with its style menu visible (pane selected): ${spread(pane)}, ${signed(pane.p50 - bare.p50)} against the bare Inspector`,
      `(${runs} loads each after a warm-up, order rotated; headless Chromium, software WebGL, 2 cores)`,
    );
  } finally {
    await pages.close();
  }
  return lines;
}
