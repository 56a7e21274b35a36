import { request } from "node:http";
import { startRecordingServer, type Responder } from "../helpers/recording-server.ts";
import { startSkyboxProxyServer, type SkyboxProxyServerOptions } from "../../src/proxy/index.ts";

export const KEY = "sk-proxy-test-4f1c2d3e5a6b7c8d";
export const SECRET = "whsec-proxy-test-9a8b7c6d5e4f";
export const BROWSER_KEY = "sk-browser-sent-0000aaaa";

/** A recording upstream and a proxy in front of it, both on 127.0.0.1. */
export async function startProxyPair(respond: Responder, options: Partial<SkyboxProxyServerOptions> = {}) {
  const upstream = await startRecordingServer(respond);
  const proxy = await startSkyboxProxyServer({
    port: 0,
    apiKey: KEY,
    apiSecret: SECRET,
    upstream: upstream.url,
    log: () => {},
    ...options,
  });
  return {
    upstream,
    proxy,
    url: proxy.url,
    api: `${proxy.url}/skybox`,
    async close() {
      await proxy.close();
      await upstream.close();
    },
  };
}

/** Everything the browser side received: status line, every header and every body byte. */
export class Transcript {
  readonly seen: string[] = [];

  /** A fetch that records each response (and its error text) before handing it back. */
  readonly fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const response = await fetch(input, init);
    await this.record(response.clone());
    return response;
  };

  async record(response: Response): Promise<void> {
    const headers: string[] = [];
    response.headers.forEach((v, k) => headers.push(`${k}: ${v}`));
    const body = Buffer.from(await response.arrayBuffer()).toString("latin1");
    this.seen.push(`${response.status}\n${headers.join("\n")}\n\n${body}`);
  }

  /** Texts that contain any of the secrets (and their URL-encoded forms). */
  leaks(secrets: string[]): string[] {
    const needles = secrets.flatMap((s) => [s, encodeURIComponent(s)]);
    return this.seen.filter((t) => needles.some((n) => t.includes(n)));
  }
}

/** A request through Node's http client, which (unlike fetch) may send hop-by-hop headers. */
export function rawRequest(url: string, options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}) {
  return new Promise<{ status: number; headers: import("node:http").IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = request(url, { method: options.method ?? "GET", headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(options.body);
  });
}
