/**
 * Where a monkey run sends its users: the local service as a process, called directly;
 * `babylon-skybox proxy` (a process, users named by a header, webhooks relayed on its
 * loopback public URL) in front of it; and the Vite plugin with its local service in this
 * very process, as `npm run dev` runs them. Each target says what must hold of its
 * processes and logs; the local service behind it is reached for the checks.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer as netServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer, type ViteDevServer } from "vite";
import skyboxProxy from "../../src/dev-server/vite-plugin.ts";
import type { LocalSkyboxService } from "../../src/local/index.ts";
import { startLocalProcess, type LocalProcess } from "../helpers/local-service.ts";
import { startProxyProcess } from "../helpers/proxy-process.ts";
import type { Json } from "./ledger.ts";
import type { Api } from "./monkey-user.ts";

/** Fast lifecycle, images large enough (1024x512 for Model 3) that a render is still under way when a cancel lands. */
export const MONKEY_LOCAL = { speed: 100, imageScale: 0.125 } as const;

export interface MonkeyTarget {
  name: string;
  api(user: string): Api;
  /** The local service behind: its data directory (folders), and its admin routes (credits) when known. */
  local: { dataDir: string; admin?: { url: string; adminToken: string } };
  /** Every log line of the processes involved. */
  logs(): string[];
  /** Processes that are no longer running. */
  dead(): string[];
  close(): Promise<void>;
}

export type TargetName = "direct" | "proxy" | "vite";

export function startTarget(name: TargetName): Promise<MonkeyTarget> {
  return name === "direct" ? direct() : name === "proxy" ? throughProxy() : throughVite();
}

export function apiAt(base: string, headers: Record<string, string>): Api {
  return async (method, path, body) => {
    const r = await fetch(`${base}${path}`, {
      method,
      headers: { ...headers, ...(body ? { "content-type": "application/json" } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await r.text();
    let json: Json;
    try {
      json = text ? JSON.parse(text) : {};
    } catch {
      json = { unparsed: text.slice(0, 200) };
    }
    return { status: r.status, json };
  };
}

const localFlags = { speed: MONKEY_LOCAL.speed, "image-scale": MONKEY_LOCAL.imageScale, "rate-limit": 1_000_000 };
const infoOf = (svc: LocalProcess) => ({ dataDir: svc.dataDir, admin: { url: svc.info.url, adminToken: svc.info.adminToken } });
const exited = (label: string, child: { exitCode: number | null; signalCode: string | null }) =>
  child.exitCode !== null || child.signalCode !== null ? [`${label} exited (${child.exitCode ?? child.signalCode})`] : [];

async function direct(): Promise<MonkeyTarget> {
  const svc = await startLocalProcess(localFlags);
  return {
    name: "the local service, directly",
    api: () => apiAt(`${svc.info.url}/api/v1`, { "x-api-key": svc.info.apiKey }),
    local: infoOf(svc),
    logs: () => svc.log,
    dead: () => exited("babylon-skybox local", svc.child),
    close: () => svc.stop(),
  };
}

/** A port free right now, so the proxy's public URL is known before it starts. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = netServer()
      .once("error", reject)
      .listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
  });

async function throughProxy(): Promise<MonkeyTarget> {
  const svc = await startLocalProcess(localFlags);
  const port = await freePort();
  const { key, wsHost, wsPort } = svc.info.pusher;
  const proxy = await startProxyProcess(
    { apiKey: svc.info.apiKey, apiSecret: svc.info.apiSecret, publicUrl: `http://127.0.0.1:${port}` },
    {
      port,
      upstream: svc.info.url,
      "user-header": "x-user",
      "rate-limit": "off",
      "pusher-key": key,
      "pusher-ws-host": wsHost,
      "pusher-ws-port": wsPort,
    },
  );
  return {
    name: "babylon-skybox proxy in front of the local service",
    api: (user) => apiAt(`${proxy.info.url}/skybox/api/v1`, { "x-user": user }),
    local: infoOf(svc),
    logs: () => [...svc.log, ...proxy.log],
    dead: () => [...exited("babylon-skybox local", svc.child), ...exited("babylon-skybox proxy", proxy.child)],
    close: async () => {
      await proxy.stop();
      await svc.stop();
    },
  };
}

async function throughVite(): Promise<MonkeyTarget> {
  const root = mkdtempSync(join(tmpdir(), "skybox-monkey-vite-"));
  writeFileSync(join(root, "index.html"), "<!doctype html>");
  const dataDir = join(root, "data");
  const logs: string[] = [];
  let local: LocalSkyboxService | null = null;
  const { startLocalSkyboxService } = await import("../../src/local/index.ts");
  const saved = process.env.SKYBOX_API_KEY;
  delete process.env.SKYBOX_API_KEY;
  let server: ViteDevServer;
  try {
    server = await createServer({
      logLevel: "silent",
      configFile: false,
      root,
      server: { port: 0, host: "127.0.0.1" },
      plugins: [
        skyboxProxy({
          local: { dataDir, ...MONKEY_LOCAL, exportScale: MONKEY_LOCAL.imageScale, rateLimit: 1_000_000, log: (line) => logs.push(line) },
          startLocal: async (options) => (local = await startLocalSkyboxService(options)),
          log: (line) => logs.push(line),
          // Monkeys poll every few milliseconds, far faster than the per-client limit allows.
          rateLimit: false,
        }),
      ],
    });
    await server.listen();
  } finally {
    if (saved !== undefined) process.env.SKYBOX_API_KEY = saved;
  }
  const base = server.resolvedUrls!.local[0]!.replace(/\/$/, "");
  const service = local as LocalSkyboxService | null;
  if (!service) throw new Error("the Vite plugin did not start the local service");
  return {
    name: "the Vite plugin with its local service, in one process",
    api: () => apiAt(`${base}/skybox/api/v1`, {}),
    local: { dataDir, admin: { url: service.url, adminToken: service.adminToken } },
    logs: () => logs,
    // This process is the dev server: it is alive if the checks run at all.
    dead: () => [],
    close: async () => {
      await server.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
