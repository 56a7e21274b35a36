import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { LocalServiceInfo } from "../../src/local/options.ts";

export interface LocalProcess {
  info: LocalServiceInfo;
  dataDir: string;
  child: ChildProcess;
  /** What the service wrote to stderr (its log). */
  log: string[];
  /** Kills the process (SIGKILL by default: no chance to flush). */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Stops it and removes its data directory. */
  stop(): Promise<void>;
}

/**
 * Starts `babylon-skybox local` as a child process, as users run it, and reads the JSON
 * line it prints once listening. Fast settings by default: small images, high speed.
 * A receiver on loopback needs `{ "allow-private-webhooks": true }`.
 */
export async function startLocalProcess(flags: Record<string, string | number | boolean> = {}, dataDir?: string): Promise<LocalProcess> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), "skybox-local-"));
  // `true` is a switch (`--allow-private-webhooks`), `false` leaves it out.
  const all: Record<string, string | number | boolean> = { port: 0, speed: 50, "image-scale": 0.0625, "data-dir": dir, ...flags };
  const args = Object.entries(all).flatMap(([k, v]) =>
    v === true ? [`--${k}`] : v === false ? [] : [`--${k}`, String(v)],
  );
  const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "local", ...args], { stdio: ["ignore", "pipe", "pipe"], cwd: process.cwd() });
  const log: string[] = [];
  createInterface({ input: child.stderr! }).on("line", (l) => log.push(l));
  const info = await new Promise<LocalServiceInfo>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`local service did not start:\n${log.join("\n")}`)), 30_000);
    createInterface({ input: child.stdout! }).once("line", (line) => {
      clearTimeout(timer);
      resolve(JSON.parse(line) as LocalServiceInfo);
    });
    child.once("exit", (code) => reject(new Error(`local service exited (${code}):\n${log.join("\n")}`)));
  });
  const kill = (signal: NodeJS.Signals = "SIGKILL") =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill(signal);
    });
  return {
    info,
    dataDir: dir,
    child,
    log,
    kill,
    async stop() {
      await kill("SIGTERM");
      if (!dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Polls `check` until it returns a value, or fails after `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 20_000, everyMs = 50): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
