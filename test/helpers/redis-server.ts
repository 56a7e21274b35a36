/**
 * A real `redis-server` for tests: Debian's package (`/usr/bin/redis-server`), started on a
 * free loopback port with no persistence (`--save "" --appendonly no`), so a restart is an
 * empty Redis, and stopped by the test. When the binary is missing, Debian's package is
 * installed first if we run as root with apt-get; otherwise the error names the command.
 *
 * @example
 * const redis = await startRedisServer();
 * const store = createRedisStore({ url: redis.url });
 * await redis.kill();     // Redis gone: the proxy answers 503
 * await redis.restart();  // same port, empty
 * await redis.stop();
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { createInterface } from "node:readline";

const INSTALL_COMMAND = "apt-get update && apt-get install -y --no-install-recommends redis-server";
const CANDIDATES = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"];

const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0;

/** Path of redis-server; installs Debian's package when missing and allowed to. */
export function findRedisServer(): string {
  const found = CANDIDATES.find((p) => existsSync(p));
  if (found) return found;
  if (isRoot() && existsSync("/usr/bin/apt-get")) {
    execFileSync("sh", ["-c", INSTALL_COMMAND], {
      stdio: "inherit",
      timeout: 600_000,
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    const installed = CANDIDATES.find((p) => existsSync(p));
    if (installed) return installed;
  }
  throw new Error(`redis-server is missing for the Redis tests. Install it with:\n  ${INSTALL_COMMAND}\n(as root).`);
}

export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Kills the server (SIGKILL: connections drop at once). */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
  /** Freezes it (SIGSTOP): connections stay open and nothing answers. `resume` thaws it. */
  freeze(): void;
  resume(): void;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function launch(binary: string, port: number): Promise<ChildProcess> {
  const args = ["--save", "", "--appendonly", "no", "--port", String(port), "--bind", "127.0.0.1", "--protected-mode", "no"];
  const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"] });
  const log: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${log.join("\n")}`)), 10_000);
    createInterface({ input: child.stdout }).on("line", (line) => {
      log.push(line);
      if (line.includes("Ready to accept connections")) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${code}):\n${log.join("\n")}`));
    });
  });
}

function ended(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGCONT");
    child.kill(signal);
  });
}

/** Starts redis-server on a free loopback port. */
export async function startRedisServer(): Promise<RedisServer> {
  const binary = findRedisServer();
  const port = await freePort();
  let child = await launch(binary, port);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill: () => ended(child, "SIGKILL"),
    async restart() {
      await ended(child, "SIGKILL");
      child = await launch(binary, port);
    },
    freeze: () => void child.kill("SIGSTOP"),
    resume: () => void child.kill("SIGCONT"),
    stop: () => ended(child, "SIGTERM"),
  };
}
