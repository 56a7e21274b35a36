import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LocalServiceInfo } from "../../src/local/service-options.ts";
import { flagArgs, startCliProcess, type CliProcess } from "./cli-process.ts";

export interface LocalProcess extends CliProcess<LocalServiceInfo> {
  dataDir: string;
  /** Stops it and removes its data directory. */
  stop(): Promise<void>;
}

/**
 * Starts `babylon-skybox local` as a child process, as users run it, and reads the JSON
 * line it prints once listening. Fast settings by default: small images, high speed.
 * Like the command with no flags, it accepts webhooks to receivers on loopback.
 */
export async function startLocalProcess(flags: Record<string, string | number | boolean> = {}, dataDir?: string): Promise<LocalProcess> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), "skybox-local-"));
  const all: Record<string, string | number | boolean> = { port: 0, speed: 50, "image-scale": 0.0625, "data-dir": dir, ...flags };
  const started = await startCliProcess<LocalServiceInfo>(["local", ...flagArgs(all)]);
  return {
    ...started,
    dataDir: dir,
    async stop() {
      await started.kill("SIGTERM");
      if (!dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Polls `check` until it returns a value, or fails after `timeoutMs`. */
export async function waitFor<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 20_000,
  everyMs = 50,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
