/**
 * The package as users get it: `npm pack`, installed from the tarball into a fresh
 * create-vite vanilla-ts app with the README's install lines, type-checked and built with
 * the template's own `npm run build` (tsc && vite build, with `babylon-skybox/vite` in the
 * config), and its proxy served by plain `node` in front of `npx babylon-skybox local`.
 * Installs prefer the npm cache (CI reaches the registry for what the cache lacks).
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createViteVersion, INSTALL, writeConsumerApp } from "./consumer-app.ts";

const run = promisify(execFile);
const NPM_FLAGS = ["--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"];
const root = process.cwd();
const work = mkdtempSync(join(tmpdir(), "skybox-consumer-"));
const app = join(work, "app");
const children: ChildProcess[] = [];

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
  createInterface({ input: child.stderr! }).on("line", (l) => log.push(l));
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command} ${args.join(" ")} did not start:\n${log.join("\n")}`)), 60_000);
    createInterface({ input: child.stdout! }).once("line", (line) => {
      clearTimeout(timer);
      resolve(JSON.parse(line) as T);
    });
    child.once("exit", (code) => reject(new Error(`${command} exited (${code}):\n${log.join("\n")}`)));
  });
}

beforeAll(async () => {
  const { stdout } = await npm(root, ["pack", "--json", "--pack-destination", work, ...NPM_FLAGS]);
  pack = (JSON.parse(stdout.slice(stdout.indexOf("["))) as PackResult[])[0]!;
  writeConsumerApp(app, join(work, pack.filename));
  await npm(app, ["install", ...NPM_FLAGS]);
  await npm(app, ["install", ...INSTALL.core, ...INSTALL.pane, ...NPM_FLAGS]);
  await npm(app, ["install", "--save-dev", ...INSTALL.localExtras, ...NPM_FLAGS]);
  console.log(`consumer app: create-vite ${createViteVersion}, tarball ${pack.filename} ${pack.size} bytes, ${pack.entryCount} files`);
}, 900_000);

afterAll(() => {
  for (const child of children) {
    try {
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    } catch {
      // The group is gone already.
    }
  }
  rmSync(work, { recursive: true, force: true });
});

describe("the npm package in a fresh app", () => {
  it("ships the build, README and LICENSE, and nothing of tests, playground or CI", () => {
    const paths = pack.files.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(["README.md", "LICENSE", "package.json", "dist/index.js", "dist/index.d.ts", "dist/cli/bin.js"]));
    for (const entry of ["index", "inspector/index", "proxy/index", "local/index"]) expect(paths).toContain(`dist/${entry}.js`);
    expect(paths.filter((p) => !/^(dist\/|README\.md$|LICENSE$|package\.json$)/.test(p))).toEqual([]);
    expect(paths.filter((p) => /(^|\/)(test|playground|\.ci)\//.test(p) || p.endsWith(".ts") && !p.endsWith(".d.ts"))).toEqual([]);
  });

  it("installs no TypeScript loader and pins Babylon to the tested minor", async () => {
    const { stdout } = await npm(app, ["ls", "tsx", "--all", "--json"]).catch((e: { stdout: string }) => ({ stdout: e.stdout }));
    expect(JSON.parse(stdout).dependencies ?? {}).toEqual({});
    const { stdout: ls } = await npm(app, ["ls", "--all", "--json"]);
    const babylon = new Map<string, Set<string>>();
    const walk = (deps: Record<string, { version?: string; dependencies?: object }> = {}) => {
      for (const [name, dep] of Object.entries(deps)) {
        if (name.startsWith("@babylonjs/") && dep.version) babylon.set(name, (babylon.get(name) ?? new Set()).add(dep.version));
        walk(dep.dependencies as typeof deps);
      }
    };
    walk(JSON.parse(ls).dependencies);
    expect([...babylon.keys()]).toEqual(expect.arrayContaining(["@babylonjs/core", "@babylonjs/loaders", "@babylonjs/inspector", "@babylonjs/gui"]));
    for (const [name, versions] of babylon) expect({ name, versions: [...versions].filter((v) => !v.startsWith("9.25.")) }).toEqual({ name, versions: [] });
  });

  it("type-checks and builds with the template's own build script (tsc && vite build)", async () => {
    const { stdout, stderr } = await npm(app, ["run", "build"]).catch((e: { stdout: string; stderr: string }) => {
      throw new Error(`npm run build failed:\n${e.stdout}\n${e.stderr}`);
    });
    expect(`${stdout}${stderr}`).not.toMatch(/error TS\d+/);
    expect(stdout).toMatch(/built in/);
  });

  it("runs the proxy on plain node in front of npx babylon-skybox local", async () => {
    const local = await startJsonLine<{ url: string; apiKey: string }>(
      "npx",
      ["--no-install", "babylon-skybox", "local", "--port", "0", "--image-scale", "0.0625", "--speed", "50", "--data-dir", join(work, "data")],
      app,
    );
    const proxy = await startJsonLine<{ url: string }>(process.execPath, ["server.mjs"], app, { SKYBOX_API_KEY: local.apiKey, SKYBOX_UPSTREAM: local.url });
    const config = await fetch(`${proxy.url}/skybox/config`);
    expect(config.status).toBe(200);
    expect(await config.json()).toMatchObject({ upstream: "local" });
    const styles = await fetch(`${proxy.url}/skybox/api/v1/skybox/styles`);
    expect(styles.status).toBe(200);
    const list = (await styles.json()) as { id: number; name: string }[];
    expect(list.length).toBeGreaterThan(0);
    expect(JSON.stringify(list)).not.toContain(local.apiKey);

    // A video export needs the optional ffmpeg package: without it, the export ends in a sentence naming the install command.
    const api = (path: string, init?: RequestInit) => fetch(`${proxy.url}/skybox/api/v1${path}`, init).then((r) => r.json() as Promise<Record<string, unknown>>);
    const post = (path: string, body: object) => api(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const until = async (read: () => Promise<Record<string, unknown>>, done: (r: Record<string, unknown>) => boolean) => {
      for (let i = 0; i < 300; i++) {
        const record = await read();
        if (done(record)) return record;
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error("timed out");
    };
    const skybox = await post("/skybox", { prompt: "desert at noon", skybox_style_id: list[0]!.id });
    const generation = await until(() => api(`/imagine/requests/${skybox.id}`).then((r) => (r.request ?? r) as Record<string, unknown>), (g) => g.status === "complete");
    const video = await post("/skybox/export", { skybox_id: generation.obfuscated_id, type_id: 7 });
    const ended = await until(() => api(`/skybox/export/${video.id}`), (e) => e.status === "error" || e.status === "complete");
    expect(ended).toMatchObject({ status: "error", error_message: expect.stringContaining("npm install --save-dev @ffmpeg-installer/ffmpeg") });
  });
});
