/**
 * Builds a folder of test pages with Vite and serves the build with `vite preview`, the
 * babylon-skybox proxy mounted at `/skybox` in front of an offline local Skybox service
 * (fast settings: speed 50, images and exports at 1/16 of their size, a temporary data directory).
 *
 * Builds are cached under node_modules/.cache, keyed by the content of the pages folder,
 * of src/ and of the options, so test files that share pages build them once.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { build, preview, type InlineConfig, type PluginOption } from "vite";
import type { LocalServiceOptions } from "../../src/local/service-options.ts";
import { skyboxProxy, type SkyboxVitePluginOptions } from "../../src/dev-server/vite-plugin.ts";

const REPO = resolve(import.meta.dirname, "../..");

/** Options of `servePages`. */
export interface ServePagesOptions {
  /** Folder holding the pages (`*.html` at its top level are the entry points). */
  root: string;
  /**
   * Options of the local Skybox service the proxy starts (merged over the fast defaults), or
   * false to mount no proxy at all.
   * @default { speed: 50, imageScale: 1 / 16, dataDir: <temporary> }
   */
  local?: LocalServiceOptions | false;
  /** Other proxy options (rate limit, ...). The API key is never taken from the environment here. */
  proxy?: Omit<SkyboxVitePluginOptions, "local" | "apiKey">;
  /** Extra Vite plugins for the build (e.g. React). */
  plugins?: PluginOption[];
  /** Dependencies left out of the bundle (e.g. the lazily imported node editors). */
  external?: (string | RegExp)[];
  /** Rebuild even when a cached build exists. @default false */
  rebuild?: boolean;
}

/** A running preview server. */
export interface ServedPages {
  /** Origin of the server, without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** The local service's data directory (removed by `close`). */
  dataDir: string | null;
  /** Milliseconds the build took (0 when a cached build was used). */
  buildMs: number;
  /** Lines the local service logged (it is quiet otherwise). */
  localLog: readonly string[];
  /**
   * Stops the server and its local service as a crash would (open connections are cut), but
   * keeps the port and the data directory for `start`: the proxy going away, for a page.
   */
  stop(): Promise<void>;
  /** Serves the same build again on the same port, with a new local service on the same data directory. */
  start(): Promise<void>;
  /** Stops the server and the local service and removes the temporary data directory. */
  close(): Promise<void>;
}

/** Builds (or reuses the cached build of) `root` and serves it on 127.0.0.1 with the proxy. */
export async function servePages(options: ServePagesOptions): Promise<ServedPages> {
  const root = resolve(options.root);
  const { outDir, buildMs } = await buildPages(root, options);
  const dataDir = options.local === false ? null : mkdtempSync(join(tmpdir(), "skybox-pages-"));
  const localLog: string[] = [];
  let server = await listen(root, outDir, options, dataDir, localLog, 0);
  const url = server.resolvedUrls!.local[0]!.replace(/\/$/, "");
  const port = Number(new URL(url).port);
  let running: Promise<void> | null = null;
  let closed: Promise<void> | null = null;
  const stop = () => (running ??= stopServer(server));
  return {
    url,
    dataDir,
    buildMs,
    localLog,
    stop,
    async start() {
      if (!running) return;
      await running;
      server = await listen(root, outDir, options, dataDir, localLog, port);
      running = null;
    },
    close: () =>
      (closed ??= (async () => {
        await stop();
        if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      })()),
  };
}

type Preview = Awaited<ReturnType<typeof preview>>;

/** `vite preview` of the build on 127.0.0.1 (`port` 0: a free one), with the proxy and its local service. */
async function listen(
  root: string,
  outDir: string,
  options: ServePagesOptions,
  dataDir: string | null,
  localLog: string[],
  port: number,
): Promise<Preview> {
  const plugins: PluginOption[] = [];
  if (options.local !== false) {
    const fast: LocalServiceOptions = { speed: 50, imageScale: 1 / 16, dataDir: dataDir!, log: (l) => localLog.push(l), ...options.local };
    // Exports at the images' scale too (the dev server's own default renders them at full size).
    const local: LocalServiceOptions = { exportScale: fast.imageScale!, ...fast };
    plugins.push(skyboxProxy({ ...options.proxy, local }));
  }
  // The plugin uses the real service when SKYBOX_API_KEY is set: tests always use the local one.
  const savedKey = process.env.SKYBOX_API_KEY;
  delete process.env.SKYBOX_API_KEY;
  try {
    return await preview({
      root,
      configFile: false,
      logLevel: "warn",
      build: { outDir },
      preview: { host: "127.0.0.1", port, strictPort: port !== 0 },
      plugins,
    });
  } finally {
    if (savedKey !== undefined) process.env.SKYBOX_API_KEY = savedKey;
  }
}

/** Closes the server and cuts its open connections (event streams, sockets), as a process that ends would. */
async function stopServer(server: Preview): Promise<void> {
  const http = server.httpServer as import("node:http").Server;
  const closing = server.close();
  http.closeAllConnections?.();
  await closing;
}

/** Builds (or reuses the cached build of) `root`, for a server of the caller's (see `servePages`). */
export async function buildPages(
  root: string,
  options: Omit<ServePagesOptions, "root" | "local" | "proxy">,
): Promise<{ outDir: string; buildMs: number }> {
  const cacheDir = join(REPO, "node_modules", ".cache", "babylon-skybox-pages");
  const outDir = join(cacheDir, buildKey(root, options));
  if (!options.rebuild && existsSync(join(outDir, ".complete"))) return { outDir, buildMs: 0 };
  mkdirSync(cacheDir, { recursive: true });
  const staging = mkdtempSync(join(cacheDir, "staging-"));
  const entries = readdirSync(root).filter((f) => f.endsWith(".html"));
  if (entries.length === 0) throw new Error(`servePages: no .html page in ${root}`);
  const t0 = Date.now();
  const config: InlineConfig = {
    root,
    configFile: false,
    logLevel: "warn",
    plugins: options.plugins ?? [],
    build: {
      outDir: staging,
      emptyOutDir: true,
      chunkSizeWarningLimit: 100_000,
      reportCompressedSize: false,
      rolldownOptions: {
        input: Object.fromEntries(entries.map((f) => [f.replace(/\.html$/, ""), join(root, f)])),
        ...(options.external ? { external: options.external } : {}),
      },
    },
  };
  try {
    await build(config);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  const buildMs = Date.now() - t0;
  writeFileSync(join(staging, ".complete"), "");
  // Another test process may have finished the same build meanwhile: keep whichever landed first.
  try {
    if (options.rebuild) rmSync(outDir, { recursive: true, force: true });
    renameSync(staging, outDir);
  } catch {
    rmSync(staging, { recursive: true, force: true });
  }
  prune(cacheDir, outDir);
  return { outDir, buildMs };
}

/** Keeps the 12 newest builds (each change of src/ or of the pages makes a new one). */
function prune(cacheDir: string, keep: string): void {
  const builds = readdirSync(cacheDir)
    .filter((d) => !d.startsWith("staging-"))
    .map((d) => join(cacheDir, d))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  for (const dir of builds.slice(12)) if (dir !== keep) rmSync(dir, { recursive: true, force: true });
  // Staging folders of builds that were killed midway.
  for (const d of readdirSync(cacheDir).filter((d) => d.startsWith("staging-"))) {
    const dir = join(cacheDir, d);
    if (Date.now() - statSync(dir).mtimeMs > 30 * 60_000) rmSync(dir, { recursive: true, force: true });
  }
}

/** Hash of everything a build depends on that changes while developing. */
function buildKey(root: string, options: Omit<ServePagesOptions, "root" | "local" | "proxy">): string {
  const hash = createHash("sha256");
  hash.update(JSON.stringify({ external: options.external?.map(String), plugins: options.plugins?.length ?? 0 }));
  for (const dir of [root, join(REPO, "src")]) hashTree(hash, dir, dir);
  hash.update(readFileSync(join(REPO, "package-lock.json")));
  return hash.digest("hex").slice(0, 16);
}

function hashTree(hash: ReturnType<typeof createHash>, dir: string, base: string): void {
  for (const name of readdirSync(dir).sort()) {
    if (name === "node_modules" || name === "dist" || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) hashTree(hash, path, base);
    else hash.update(relative(base, path)).update(readFileSync(path));
  }
}
