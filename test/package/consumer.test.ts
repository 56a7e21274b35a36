/**
 * The package as users get it: `npm pack`, installed from the tarball into fresh create-vite
 * vanilla-ts apps with the README's install lines and no flag, type-checked and built with
 * the template's own `npm run build` (tsc && vite build, with `babylon-skybox/vite` in the
 * config), a skybox applied and the pane shown in Chromium, and its proxy served by plain
 * `node` in front of `npx babylon-skybox local`. One app per Babylon release of the matrix
 * (babylon-matrix.ts: the oldest claimed, the newest, one between), installed side by side
 * sharing the npm cache. Installs prefer the cache (CI reaches the registry for what it lacks).
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { mkdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { preview } from "vite";
import { launchBrowser } from "../browser/harness.ts";
import { findBabylonMatrix, OLDEST, type MatrixEntry } from "./babylon-matrix.ts";
import { createViteVersion, installLines, writeConsumerApp, type BabylonVersions } from "./consumer-app.ts";

const run = promisify(execFile);
const NPM_FLAGS = ["--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"];
const root = process.cwd();
const work = mkdtempSync(join(tmpdir(), "skybox-consumer-"));
const children: ChildProcess[] = [];
const matrix = await findBabylonMatrix();
const appDir = (label: string) => join(work, `app-${label}`);
/** The app of the oldest release runs the proxy and the local service for every app. */
const app = appDir("oldest");
let proxyUrl: string;
let localService: { url: string; apiKey: string };

interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: { path: string }[];
}
let pack: PackResult;

const npm = (cwd: string, args: string[], env: NodeJS.ProcessEnv = {}) =>
  run("npm", args, { cwd, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024, timeout: 600_000 });

/** Starts a process that prints one JSON line once ready, and returns that line parsed. */
async function startJsonLine<T>(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<T> {
  // Its own process group: npx runs the command in a child of its own, and both must go at the end.
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  children.push(child);
  const log: string[] = [];
  createInterface({ input: child.stderr }).on("line", (l) => log.push(l));
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command} ${args.join(" ")} did not start:\n${log.join("\n")}`)), 60_000);
    createInterface({ input: child.stdout }).once("line", (line) => {
      clearTimeout(timer);
      resolve(JSON.parse(line) as T);
    });
    child.once("exit", (code) => reject(new Error(`${command} exited (${code}):\n${log.join("\n")}`)));
  });
}

const prepared = new Map<string, Promise<void>>();

/** Writes and installs the app of one matrix entry with the README's lines (once). */
function prepareApp({ label, versions }: MatrixEntry): Promise<void> {
  if (!prepared.has(label))
    prepared.set(
      label,
      (async () => {
        const dir = appDir(label);
        const lines = installLines(versions);
        writeConsumerApp(dir, join(work, pack.filename));
        // The README's first line with the pane's package added (one resolution of the tree, not three).
        await npm(dir, ["install", ...lines.core, ...lines.pane, ...NPM_FLAGS]);
        // Only the oldest app runs the local service.
        if (label === "oldest") await npm(dir, ["install", "--save-dev", ...lines.localExtras, ...NPM_FLAGS]);
      })(),
    );
  return prepared.get(label)!;
}

beforeAll(async () => {
  const { stdout } = await npm(root, ["pack", "--json", "--pack-destination", work, ...NPM_FLAGS]);
  pack = (JSON.parse(stdout.slice(stdout.indexOf("["))) as PackResult[])[0]!;
  // Every app installs at once (npm's cache is safe to share); each describe awaits its own.
  for (const entry of matrix.entries) prepareApp(entry).catch(() => undefined);
  await prepareApp({ label: "oldest", versions: OLDEST });
  localService = await startJsonLine<{ url: string; apiKey: string }>(
    "npx",
    [
      "--no-install",
      "babylon-skybox",
      "local",
      "--port",
      "0",
      "--image-scale",
      "0.0625",
      "--speed",
      "50",
      "--data-dir",
      join(work, "data"),
    ],
    app,
  );
  proxyUrl = (
    await startJsonLine<{ url: string }>(process.execPath, ["server.mjs"], app, {
      SKYBOX_API_KEY: localService.apiKey,
      SKYBOX_UPSTREAM: localService.url,
    })
  ).url;
  const releases = matrix.entries.map(
    (e) => `${e.label}: core ${e.versions.core}, loaders ${e.versions.loaders}, inspector ${e.versions.inspector}`,
  );
  console.log(
    `consumer app: create-vite ${createViteVersion}, tarball ${pack.filename} ${pack.size} bytes, ${pack.entryCount} files; Babylon ${releases.join("; ")}`,
  );
  if (matrix.skipped) console.log(`consumer app: only the oldest Babylon release is tested: ${matrix.skipped}`);
}, 900_000);

afterAll(async () => {
  for (const child of children) {
    try {
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    } catch {
      // The group is gone already.
    }
  }
  // Three apps' node_modules: slow to remove on a busy machine.
  await rm(work, { recursive: true, force: true });
}, 600_000);

describe("the npm package in a fresh app", () => {
  it("ships the build, README and LICENSE, and nothing of tests, playground or CI", () => {
    const paths = pack.files.map((f) => f.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        "README.md",
        "LICENSE",
        "package.json",
        "dist/index.js",
        "dist/index.d.ts",
        "dist/cli/bin.js",
        "bin/babylon-skybox.mjs",
      ]),
    );
    for (const entry of ["index", "inspector/index", "proxy/index", "local/index"]) expect(paths).toContain(`dist/${entry}.js`);
    expect(paths.filter((p) => !/^(dist\/|bin\/babylon-skybox\.mjs$|README\.md$|LICENSE$|package\.json$)/.test(p))).toEqual([]);
    expect(paths.filter((p) => /(^|\/)(test|playground|\.ci)\//.test(p) || (p.endsWith(".ts") && !p.endsWith(".d.ts")))).toEqual([]);
  });

  it("ships source maps that carry their sources: a dev server serving the package's modules as they are (the sun worker's) finds nothing missing", async () => {
    const maps = pack.files.map((f) => f.path).filter((p) => p.endsWith(".js.map"));
    expect(maps.length).toBeGreaterThan(100);
    const unpacked = join(work, "unpacked");
    await mkdir(unpacked, { recursive: true });
    await run("tar", ["-xzf", join(work, pack.filename), "-C", unpacked]);
    const missing: string[] = [];
    for (const path of maps) {
      const map = JSON.parse(await readFile(join(unpacked, "package", path), "utf8")) as { sources: string[]; sourcesContent?: unknown[] };
      if (map.sourcesContent?.length !== map.sources.length || map.sourcesContent.some((s) => typeof s !== "string")) missing.push(path);
    }
    expect(missing).toEqual([]);
  });

  it("installs no TypeScript loader", async () => {
    const { stdout } = await npm(app, ["ls", "tsx", "--all", "--json"]).catch((e: { stdout: string }) => ({ stdout: e.stdout }));
    expect(JSON.parse(stdout).dependencies ?? {}).toEqual({});
  });

  it("runs the proxy on plain node in front of npx babylon-skybox local", async () => {
    const [local, proxy] = [localService, { url: proxyUrl }];
    const config = await fetch(`${proxy.url}/skybox/config`);
    expect(config.status).toBe(200);
    expect(await config.json()).toMatchObject({ upstream: "local" });
    const styles = await fetch(`${proxy.url}/skybox/api/v1/skybox/styles`);
    expect(styles.status).toBe(200);
    const list = (await styles.json()) as { id: number; name: string }[];
    expect(list.length).toBeGreaterThan(0);
    expect(JSON.stringify(list)).not.toContain(local.apiKey);

    // A video export needs the optional ffmpeg package: without it, the export ends in a sentence naming the install command.
    const api = (path: string, init?: RequestInit) =>
      fetch(`${proxy.url}/skybox/api/v1${path}`, init).then((r) => r.json() as Promise<Record<string, unknown>>);
    const post = (path: string, body: object) =>
      api(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const until = async (read: () => Promise<Record<string, unknown>>, done: (r: Record<string, unknown>) => boolean) => {
      for (let i = 0; i < 300; i++) {
        const record = await read();
        if (done(record)) return record;
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error("timed out");
    };
    const skybox = await post("/skybox", { prompt: "desert at noon", skybox_style_id: list[0]!.id });
    const generation = await until(
      () => api(`/imagine/requests/${String(skybox.id)}`).then((r) => (r.request ?? r) as Record<string, unknown>),
      (g) => g.status === "complete",
    );
    const video = await post("/skybox/export", { skybox_id: generation.obfuscated_id, type_id: 7 });
    const ended = await until(
      () => api(`/skybox/export/${String(video.id)}`),
      (e) => e.status === "error" || e.status === "complete",
    );
    expect(ended).toMatchObject({
      status: "error",
      error_message: expect.stringContaining("npm install --save-dev @ffmpeg-installer/ffmpeg"),
    });
  });
});

/** Babylon packages in the app's tree: every version of each. */
async function babylonTree(dir: string): Promise<Map<string, Set<string>>> {
  const { stdout } = await npm(dir, ["ls", "--all", "--json"]);
  const babylon = new Map<string, Set<string>>();
  const walk = (deps: Record<string, { version?: string; dependencies?: object }> = {}) => {
    for (const [name, dep] of Object.entries(deps)) {
      if (name.startsWith("@babylonjs/") && dep.version) babylon.set(name, (babylon.get(name) ?? new Set()).add(dep.version));
      walk(dep.dependencies as typeof deps);
    }
  };
  walk(JSON.parse(stdout).dependencies);
  return babylon;
}

/** `promise`, or an error naming `what` after `ms` (a page's promise never settling would keep its browser open). */
async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not finish in ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Serves the app's build with `/skybox` forwarded to the proxy (keeping the Host, as a reverse
 * proxy in front of both would: the proxy serves its own origin only), opens it in Chromium,
 * applies a skybox and shows the pane.
 */
async function applyInChromium(dir: string, versions: BabylonVersions) {
  const server = await preview({
    root: dir,
    configFile: false,
    logLevel: "warn",
    build: { outDir: join(dir, "dist") },
    preview: { host: "127.0.0.1", port: 0, proxy: { "/skybox": { target: proxyUrl, changeOrigin: false } } },
  });
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => void (m.type() === "error" && errors.push(m.text())));
    await page.goto(server.resolvedUrls!.local[0]!);
    await page.waitForFunction(() => "consumer" in window);
    type Shade = { elevation: number; intensity: number; onMainThread: number; away: number[]; towards: number[] } | null;
    type Consumer = {
      babylon: string;
      apply(prompt: string): Promise<{ before: number[]; after: number[]; environment: string | null }>;
      sunShade(prompt: string): Promise<Shade>;
      openPane(): Promise<void>;
    };
    const running = await page.evaluate(() => (window as unknown as { consumer: Consumer }).consumer.babylon);
    const applied = await within(
      120_000,
      "applySkybox",
      page.evaluate((p) => (window as unknown as { consumer: Consumer }).consumer.apply(p), "desert at noon"),
    );
    const shade = await within(
      180_000,
      "applySkybox with the sun",
      page.evaluate((p) => (window as unknown as { consumer: Consumer }).consumer.sunShade(p), "clear desert at noon"),
    );
    await within(
      60_000,
      "opening the pane",
      page.evaluate(() => (window as unknown as { consumer: Consumer }).consumer.openPane()),
    );
    await page.getByTestId("skybox-pane").waitFor({ timeout: 60_000 });
    await page.getByTestId("skybox-style-2").waitFor({ timeout: 60_000 });
    return { running, applied, shade, errors, expected: versions.core };
  } finally {
    await browser.close();
    await server.close();
  }
}

for (const entry of matrix.entries) {
  const { label, versions } = entry;
  describe(`Babylon ${label} (core ${versions.core}, loaders ${versions.loaders}, inspector ${versions.inspector})`, () => {
    const dir = appDir(label);
    beforeAll(() => prepareApp(entry), 900_000);

    it("installs with a plain npm install: one copy of each Babylon package, at the releases asked for", async () => {
      const babylon = await babylonTree(dir);
      expect([...babylon.keys()]).toEqual(
        expect.arrayContaining(["@babylonjs/core", "@babylonjs/loaders", "@babylonjs/inspector", "@babylonjs/gui"]),
      );
      for (const [name, found] of babylon) expect({ name, versions: found.size }).toEqual({ name, versions: 1 });
      const chosen = {
        core: babylon.get("@babylonjs/core"),
        loaders: babylon.get("@babylonjs/loaders"),
        inspector: babylon.get("@babylonjs/inspector"),
      };
      expect(Object.fromEntries(Object.entries(chosen).map(([k, v]) => [k, [...v!][0]]))).toEqual(versions);
      console.log(`consumer app ${label}: ${[...babylon].map(([name, v]) => `${name}@${[...v].join(",")}`).join(" ")}`);
    });

    it("type-checks and builds with the template's own build script (tsc && vite build)", async () => {
      const { stdout, stderr } = await npm(dir, ["run", "build"]).catch((e: { stdout: string; stderr: string }) => {
        throw new Error(`npm run build failed:\n${e.stdout}\n${e.stderr}`);
      });
      expect(`${stdout}${stderr}`).not.toMatch(/error TS\d+/);
      expect(stdout).toMatch(/built in/);
    }, 300_000);

    it("applies a skybox in Chromium, lights a ground with its sun, and shows the pane, on the Babylon release installed", async () => {
      const { running, applied, shade, errors, expected } = await applyInChromium(dir, versions);
      expect(running).toBe(expected);
      expect(applied.environment).toBe("HDRCubeTexture");
      // The background replaces the clear colour in the middle of the canvas.
      const change = applied.before.reduce((sum, c, i) => sum + Math.abs(c - applied.after[i]!), 0) / 3;
      expect(change).toBeGreaterThan(10);
      // A noon sun high up, and with the default intensity a shade at least 25% darker than the ground in the sun.
      const luma = ([r, g, b]: number[]) => 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
      console.log(
        `consumer app ${label}: noon sun ${shade?.elevation.toFixed(1)} degrees up, intensity ${shade?.intensity.toFixed(2)}, ground ${shade ? luma(shade.away).toFixed(0) : "-"} in the shade, ${shade ? luma(shade.towards).toFixed(0) : "-"} in the sun`,
      );
      expect(shade).not.toBeNull();
      expect(shade!.elevation).toBeGreaterThan(30);
      expect(luma(shade!.away)).toBeLessThan(0.75 * luma(shade!.towards));
      // Found by the package's sun worker, which the app's build emitted: not on the main thread.
      expect(shade!.onMainThread).toBe(0);
      expect(errors).toEqual([]);
    }, 300_000);
  });
}

if (matrix.skipped)
  describe.skip(`Babylon newest and between (${matrix.skipped})`, () => it.skip("installs, builds, applies a skybox and shows the pane"));
