/**
 * The memory `npm run dev` holds: its process tree, Vite with the proxy and the local
 * service inside (its defaults: images at half size; the lifecycle sped up to 1000x here, which
 * changes waiting, not memory), idle after start, at its peak over ten generations a user
 * asks for one after the other (Model 3 and Model 4 in turn; polled within the default
 * rate limit), and 15 s after the last.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSkyboxClient } from "../../src/api/index.ts";
import { waitFor } from "../helpers/local-service.ts";
import { treeRss } from "./process-usage.ts";

const GENERATIONS = 10;
const GOAL_MB = 1024;
const SETTLE_SECONDS = 15;
const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as { port: number };
  await new Promise((ok) => server.close(ok));
  return port;
}

export async function devMemoryBench(): Promise<string[]> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "skybox-dev-bench-"));
  // What `npm run dev` runs (scripts/dev.mjs starts Vite as its child).
  const child = spawn(process.execPath, ["scripts/dev.mjs", "--host", "127.0.0.1", "--port", String(port), "--strictPort"], {
    cwd: process.cwd(),
    env: { ...process.env, SKYBOX_LOCAL_SPEED: "1000", SKYBOX_LOCAL_DATA_DIR: dataDir },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const errors: string[] = [];
  child.stderr.on("data", (d: Buffer) => errors.push(d.toString()));
  try {
    const base = `http://127.0.0.1:${port}/skybox`;
    await waitFor(async () => (await fetch(`${base}/config`).catch(() => null))?.ok, 60_000, 200).catch(() => {
      throw new Error(`npm run dev did not start:\n${errors.join("")}`);
    });
    await new Promise((r) => setTimeout(r, 1000));
    const pid = child.pid!;
    const idle = treeRss(pid);
    let peak = idle;
    const timer = setInterval(() => (peak = Math.max(peak, treeRss(pid))), 10);
    const client = createSkyboxClient({ baseUrl: base, retry: 0 });
    try {
      for (let i = 0; i < GENERATIONS; i++) {
        const params = i % 2 === 0 ? { skybox_style_id: 2 } : { skybox_style_id: 101, variant_id: 1011 };
        const g = await client.generate({ prompt: "alpine lake at sunset with snowy mountains", seed: i + 1, ...params });
        await waitFor(
          async () => {
            const r = await client.getGeneration(g.id);
            if (r.status === "error" || r.status === "abort") throw new Error(`generation ${g.id} ended in ${r.status}`);
            return r.status === "complete";
          },
          300_000,
          250,
        );
      }
    } finally {
      clearInterval(timer);
    }
    const last = treeRss(pid);
    await new Promise((r) => setTimeout(r, SETTLE_SECONDS * 1000));
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`npm run dev exited (${child.exitCode ?? child.signalCode}):\n${errors.join("").slice(-3000)}`);
    const after = treeRss(pid);
    return [
      `\`npm run dev\` RSS (its process tree: Vite with the local service inside, half-size images): idle ${mb(idle)} MB, peak ${mb(Math.max(peak, last))} MB over ${GENERATIONS} generations, right after ${mb(last)} MB, ${SETTLE_SECONDS} s after ${mb(after)} MB (goal < ${GOAL_MB})`,
    ];
  } finally {
    await new Promise<void>((ok) => {
      if (child.exitCode !== null) return ok();
      child.once("exit", () => ok());
      child.kill("SIGTERM");
    });
    rmSync(dataDir, { recursive: true, force: true });
  }
}
