import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { brotliCompressSync, createGzip, deflateSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, test } from "vitest";
import { startSkyboxProxyServer, type SkyboxProxyServerOptions } from "../../../src/proxy/index.ts";
import { nodeUpstreamClient } from "../../../src/proxy/upstream/node-upstream.ts";
import type { UpstreamRequest } from "../../../src/proxy/upstream/upstream-client.ts";
import { completeRecord } from "../../fixtures/api-shapes.ts";
import { KEY, rawRequest } from "../proxy-fixture.ts";

/** No test here may take longer. */
const BOUNDED = { timeout: 5_000 };

/** Everything a test opened (servers, clients, proxies), closed after it, last opened first. */
const opened: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

/**
 * A node:http upstream on 127.0.0.1. It records each request as "METHOD path #n", n being
 * the connection it came on (1 for the first), and counts each connection's requests.
 */
async function startUpstream(handle: (req: IncomingMessage, res: ServerResponse, nth: number) => void) {
  const seen: string[] = [];
  const sockets = new Map<Socket, { id: number; served: number }>();
  const server = createServer((req, res) => {
    let socket = sockets.get(req.socket);
    if (!socket) sockets.set(req.socket, (socket = { id: sockets.size + 1, served: 0 }));
    socket.served += 1;
    seen.push(`${req.method} ${req.url} #${socket.id}`);
    handle(req, res, socket.served);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  opened.push(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

function startClient() {
  const client = nodeUpstreamClient(new URL("http://127.0.0.1"));
  opened.push(() => client.close());
  return client;
}

/** The proxy in front of `upstream`; returns the browser's API base. */
async function startProxy(upstream: string, options: Partial<SkyboxProxyServerOptions> = {}) {
  const proxy = await startSkyboxProxyServer({ port: 0, apiKey: KEY, upstream, log: () => {}, ...options });
  opened.push(() => proxy.close());
  return `${proxy.url}/skybox/api/v1`;
}

const request = (url: string, more: Partial<UpstreamRequest> = {}): UpstreamRequest => ({
  method: "GET",
  url,
  headers: {},
  timeoutMs: 2_000,
  maxBytes: 1 << 20,
  ...more,
});
const text = (bytes: Uint8Array | null) => (bytes === null ? null : Buffer.from(bytes).toString("utf8"));

describe("compressed answers are decoded", BOUNDED, () => {
  const compress = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };

  test.each(["gzip", "deflate", "br"] as const)("content-encoding: %s gives the decoded bytes", async (encoding) => {
    const body = JSON.stringify({ prompt: "a calm sea ".repeat(500) });
    const upstream = await startUpstream((req, res) => {
      res.writeHead(200, {
        "content-type": "application/json",
        "content-encoding": encoding,
        "x-asked": String(req.headers["accept-encoding"]),
      });
      res.end(compress[encoding](body));
    });
    const answer = await startClient().send(request(`${upstream.url}/x`));
    expect(answer.header("x-asked")).toBe("gzip, deflate, br");
    expect(answer.status).toBe(200);
    expect(text(answer.bytes)).toBe(body);
  });

  test("an answer whose decoded size passes maxBytes gives bytes: null (a decompression bomb is cut)", async () => {
    const bomb = gzipSync(Buffer.alloc(32 << 20)); // 32 MiB of zeros in about 32 KiB
    const upstream = await startUpstream((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
      res.end(bomb);
    });
    const maxBytes = 1 << 20;
    expect(bomb.byteLength).toBeLessThan(maxBytes);
    const answer = await startClient().send(request(`${upstream.url}/x`, { maxBytes }));
    expect(answer.status).toBe(200);
    expect(answer.bytes).toBeNull();
  });

  test("a 304 that names an encoding but has no body is an empty answer, not an error", async () => {
    const upstream = await startUpstream((_req, res) => {
      res.writeHead(304, { etag: '"v1"', "content-encoding": "gzip" });
      res.end();
    });
    const answer = await startClient().send(request(`${upstream.url}/x`, { headers: { "if-none-match": '"v1"' } }));
    expect(answer.status).toBe(304);
    expect(answer.bytes?.byteLength).toBe(0);
  });

  test("end to end: the browser gets the JSON, asset URLs rewritten, without a content-encoding header", async () => {
    const upstream = await startUpstream((_req, res) => {
      const record = { ...completeRecord, file_url: `${upstream.url}/files/46/image.jpg` };
      res.writeHead(200, { "content-type": "application/json", "content-encoding": "br" });
      res.end(brotliCompressSync(JSON.stringify({ request: record })));
    });
    const api = await startProxy(upstream.url);
    const res = await rawRequest(`${api}/imagine/requests/46`);
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBeUndefined();
    const got = JSON.parse(res.body.toString("utf8")) as { request: { prompt: string; file_url: string } };
    expect(got.request.prompt).toBe(completeRecord.prompt);
    expect(got.request.file_url).toBe(`/skybox/assets/http/${new URL(upstream.url).host}/files/46/image.jpg`);
  });
});

describe("a kept-alive connection the server closed", BOUNDED, () => {
  /** Answers each connection's first request; drops the next ones unanswered, as a server closing an idle connection. */
  const dropsReused = (_req: IncomingMessage, res: ServerResponse, nth: number) => {
    if (nth > 1) return void res.socket?.destroy();
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ ok: true }));
  };

  /** The first connection back in the pool, idle (a request made at once may open a second one). */
  const idle = () => new Promise((resolve) => setTimeout(resolve, 20));

  test("a GET is sent once more, on a fresh connection", async () => {
    const upstream = await startUpstream(dropsReused);
    const client = startClient();
    expect((await client.send(request(`${upstream.url}/a`))).status).toBe(200);
    await idle();
    const again = await client.send(request(`${upstream.url}/b`));
    expect(again.status).toBe(200);
    expect(text(again.bytes)).toBe('{"ok":true}');
    expect(upstream.seen).toEqual(["GET /a #1", "GET /b #1", "GET /b #2"]);
  });

  test("a POST is not sent again: it rejects", async () => {
    const upstream = await startUpstream(dropsReused);
    const client = startClient();
    await client.send(request(`${upstream.url}/a`));
    await idle();
    await expect(client.send(request(`${upstream.url}/b`, { method: "POST", body: "{}" }))).rejects.toThrow(/closed|reset/i);
    expect(upstream.seen).toEqual(["GET /a #1", "POST /b #1"]);
  });

  test("end to end: the GET is answered, the POST is a 502", async () => {
    const upstream = await startUpstream(dropsReused);
    const api = await startProxy(upstream.url);
    expect((await fetch(`${api}/skybox/styles`)).status).toBe(200);
    expect((await fetch(`${api}/skybox/styles`)).status).toBe(200);
    const post = await fetch(`${api}/skybox`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ prompt: "a calm sea", skybox_style_id: 2 }),
    });
    expect(post.status).toBe(502);
    expect(await post.json()).toEqual({ error: "The Skybox API could not be reached" });
    expect(upstream.seen).toEqual([
      "GET /api/v1/skybox/styles #1",
      "GET /api/v1/skybox/styles #1",
      "GET /api/v1/skybox/styles #2",
      "POST /api/v1/skybox #2",
    ]);
  });
});

describe("the timeout covers the whole exchange", BOUNDED, () => {
  /** Sends headers, then a byte every 50 ms, never ending (gzip-compressed when asked). */
  const trickles = (encoding: "identity" | "gzip") => (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { "content-type": "application/json", ...(encoding === "gzip" ? { "content-encoding": "gzip" } : {}) });
    const gzip = encoding === "gzip" ? createGzip() : null;
    gzip?.pipe(res);
    const send = (chunk: string) => (gzip ? (gzip.write(chunk), gzip.flush()) : res.write(chunk));
    send("{");
    const timer = setInterval(() => send(" "), 50);
    res.on("close", () => clearInterval(timer));
  };

  test.each(["identity", "gzip"] as const)("a body trickled slower than timeoutMs (%s) rejects with a TimeoutError", async (encoding) => {
    const upstream = await startUpstream(trickles(encoding));
    const started = Date.now();
    const error = await startClient()
      .send(request(`${upstream.url}/x`, { timeoutMs: 300 }))
      .then(
        () => null,
        (e: unknown) => e,
      );
    const took = Date.now() - started;
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toBe("TimeoutError");
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(1_000);
  });

  test("end to end: the proxy answers 504 with a JSON error within about its timeoutMs", async () => {
    const upstream = await startUpstream(trickles("identity"));
    const api = await startProxy(upstream.url, { timeoutMs: 300 });
    const started = Date.now();
    const res = await fetch(`${api}/skybox/styles`);
    const took = Date.now() - started;
    expect(res.status).toBe(504);
    expect(await res.json()).toEqual({ error: "The Skybox API did not answer in time" });
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(1_000);
  });
});
