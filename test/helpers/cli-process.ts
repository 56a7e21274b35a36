import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";

export interface CliProcess<Info> {
  /** What the command printed once listening (its first stdout line, parsed). */
  info: Info;
  child: ChildProcess;
  /** What the process wrote to stderr (its log). */
  log: string[];
  /** Kills the process (SIGKILL by default: no chance to flush). */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** `true` is a switch (`--allow-private-webhooks`), `false` leaves it out. */
export function flagArgs(flags: Record<string, string | number | boolean>): string[] {
  return Object.entries(flags).flatMap(([k, v]) => (v === true ? [`--${k}`] : v === false ? [] : [`--${k}`, String(v)]));
}

/**
 * Starts `babylon-skybox <args>` as a child process, as users run it, and reads the JSON
 * line it prints once listening.
 */
export function startCliProcess<Info>(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<CliProcess<Info>> {
  return startScriptProcess("src/cli/main.ts", args, env);
}

/**
 * Starts a file of the repository as a process that prints a JSON line once listening: a
 * TypeScript one through tsx, a JavaScript one (the built `dist/cli/bin.js`) with plain Node.
 */
export async function startScriptProcess<Info>(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<CliProcess<Info>> {
  const loader = script.endsWith(".ts") ? ["--import", "tsx"] : [];
  const child = spawn(process.execPath, [...loader, script, ...args], { stdio: ["ignore", "pipe", "pipe"], cwd: process.cwd(), env });
  const log: string[] = [];
  createInterface({ input: child.stderr }).on("line", (l) => log.push(l));
  const info = await new Promise<Info>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args[0]} did not start:\n${log.join("\n")}`)), 30_000);
    createInterface({ input: child.stdout }).once("line", (line) => {
      clearTimeout(timer);
      resolve(JSON.parse(line) as Info);
    });
    child.once("exit", (code) => reject(new Error(`${args[0]} exited (${code}):\n${log.join("\n")}`)));
  });
  const kill = (signal: NodeJS.Signals = "SIGKILL") =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill(signal);
    });
  return { info, child, log, kill };
}
