/**
 * Where the replays of published clients run: the local service directly, and the proxy in
 * front of it (as `babylon-skybox proxy --upstream <local>` runs it). A client behind the
 * proxy sends whatever key it was configured with; the proxy drops it and adds its own.
 */
import { createServer, type AddressInfo } from "node:net";
import { startSkyboxProxyServer, type SkyboxProxyServer } from "../../src/proxy/index.ts";
import { startLocalProcess, waitFor, type LocalProcess } from "../helpers/local-service.ts";

export interface Target {
  name: "local service" | "proxy";
  /** The API root the client is configured with, `.../api/v1`. */
  api: string;
  /** The key the client holds (behind the proxy: any, it is replaced). */
  key: string;
}

export interface Targets {
  local: LocalProcess;
  proxy: SkyboxProxyServer;
  all: Target[];
  close(): Promise<void>;
}

/** A free loopback port, so the proxy can know its own public URL before it listens. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The local service, and the proxy in front of it with its public URL set (as a server-side
 * client behind it needs: asset URLs in answers are then absolute, and webhooks come back).
 */
export async function startTargets(): Promise<Targets> {
  // The proxy names its own loopback address as webhook_url.
  const local = await startLocalProcess({});
  const port = await freePort();
  const proxy = await startSkyboxProxyServer({
    port,
    publicUrl: `http://127.0.0.1:${port}`,
    apiKey: local.info.apiKey,
    apiSecret: local.info.apiSecret,
    upstream: local.info.url,
    pusher: local.info.pusher,
    rateLimit: false,
    log: () => {},
  });
  return {
    local,
    proxy,
    all: [
      { name: "local service", api: `${local.info.url}/api/v1`, key: local.info.apiKey },
      { name: "proxy", api: `${proxy.url}/skybox/api/v1`, key: "key-the-proxy-replaces-0000" },
    ],
    async close() {
      await proxy.close();
      await local.stop();
    },
  };
}

export interface Sent {
  status: number;
  json: unknown;
  text: string;
}

/** One request as a client writes it: raw method, URL, headers and body bytes. */
export async function send(url: string, init: { method?: string; headers?: Record<string, string>; body?: BodyInit } = {}): Promise<Sent> {
  const response = await fetch(url, {
    method: init.method ?? "GET",
    headers: init.headers ?? {},
    ...(init.body === undefined ? {} : { body: init.body }),
  });
  const text = await response.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // left null: the step's own check reports it
  }
  return { status: response.status, json, text };
}

/** Asserts a 200 and returns the JSON, with the answer in the message when it is not. */
export function ok(sent: Sent, step: string): unknown {
  if (sent.status !== 200) throw new Error(`${step}: ${sent.status} ${sent.text.slice(0, 400)}`);
  return sent.json;
}

/** A 1x1 PNG, as the image a client uploads. */
export const PNG = Uint8Array.from(
  Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64"),
);

/** Polls a generation by id through `get` until it ends, as the SDKs' polling loops do. */
export function untilGenerationEnds<T extends { status?: unknown }>(get: () => Promise<T>, timeoutMs = 60_000): Promise<T> {
  return waitFor(
    async () => {
      const record = await get();
      return ["complete", "error", "abort"].includes(String(record.status)) && record;
    },
    timeoutMs,
    100,
  );
}

/** The first Model 3 style id of a style list (the SDKs of Model 3 days take the first). */
export const firstStyleId = (styles: unknown): number => (styles as { id: number }[])[0]!.id;
