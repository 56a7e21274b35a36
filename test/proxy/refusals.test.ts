import { createServer } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { createSkyboxProxy, toNodeHandler } from "../../src/proxy/index.ts";
import { creationResponse } from "../fixtures/api-shapes.ts";
import { KEY, rawRequest, startProxyPair } from "./proxy-fixture.ts";

let pair: Awaited<ReturnType<typeof startProxyPair>>;

beforeAll(async () => {
  pair = await startProxyPair(() => ({ body: creationResponse }), {
    maxBodyBytes: 64 * 1024,
    allowedOrigins: ["https://editor.example.test"],
  });
});
afterAll(() => pair.close());
beforeEach(() => {
  pair.upstream.requests.length = 0;
});

/** Sends a request line exactly as written (no client-side normalisation of `..`). */
function rawLine(path: string): Promise<string> {
  const { port } = new URL(pair.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1", () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`),
    );
    let text = "";
    socket.on("data", (c) => (text += c.toString("latin1")));
    socket.on("end", () => resolve(text.split("\r\n")[0]!));
    socket.on("error", reject);
  });
}

describe("not an open proxy", () => {
  test.each([
    ["/", "GET"],
    ["/other", "GET"],
    ["/skybox", "GET"],
    ["/skybox/", "GET"],
    ["/skybox/api/v2/skybox", "GET"],
    ["/skybox/api/v1/admin", "GET"],
    ["/skybox/api/v1/skybox/styles/extra", "GET"],
    ["/skybox/api/v1/imagine/requests/abc", "GET"],
    ["/skybox/api/v1/skybox/export/a.b", "GET"],
    ["/skybox/api/v1/skybox/export/%2e%2e%2fadmin", "GET"],
    ["/skybox/http://evil.example.test/", "GET"],
    ["/skybox/webhookx", "POST"],
  ])("%s (%s) is a 404 without an upstream request", async (path, method) => {
    const res = await fetch(`${pair.url}${path}`, { method });
    expect(res.status).toBe(404);
    expect(pair.upstream.requests).toHaveLength(0);
  });

  test.each([
    ["/skybox/api/v1/skybox/styles", "POST"],
    ["/skybox/api/v1/skybox", "PUT"],
    ["/skybox/api/v1/skybox/export/history", "POST"],
    ["/skybox/api/v1/skybox/batch/9", "DELETE"],
    ["/skybox/api/v1/skybox/styles", "PATCH"],
  ])("%s with %s is a 405 naming the allowed methods, without an upstream request", async (path, method) => {
    const res = await fetch(`${pair.url}${path}`, { method });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toMatch(/GET|POST|DELETE/);
    expect(pair.upstream.requests).toHaveLength(0);
  });

  test.each([
    "/skybox/api/v1/../../etc/passwd",
    "/skybox/api/v1/skybox/../../../etc",
    "/skybox/api/v1/%2e%2e/%2e%2e/etc",
    "/skybox/api/v1/skybox/export/..%2f..%2fetc",
  ])("path traversal %s goes nowhere", async (path) => {
    expect(await rawLine(path)).toMatch(/^HTTP\/1\.1 40[04]/);
    expect(pair.upstream.requests).toHaveLength(0);
  });

  test("the Node adapter answers a Host header that is not a host with a 400", async () => {
    const server = createServer(toNodeHandler(createSkyboxProxy({ apiKey: KEY, upstream: pair.upstream.url, log: () => {} })));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const res = await rawRequest(`http://127.0.0.1:${(server.address() as AddressInfo).port}/skybox/config`, {
        headers: { host: "a b" },
      });
      expect(res.status).toBe(400);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  test("so does it for any other Fetch handler, which never sees the request", async () => {
    let calls = 0;
    const server = createServer(toNodeHandler(async () => (calls++, new Response("ok"))));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
      expect((await rawRequest(url, { headers: { host: "a b" } })).status).toBe(400);
      expect((await rawRequest(url)).status).toBe(200);
      expect(calls).toBe(1);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

describe("body limits", () => {
  test("an announced oversized body is a 413 with a JSON error", async () => {
    const res = await fetch(`${pair.api}/api/v1/skybox`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ prompt: "x".repeat(70 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect((await res.json()).error).toMatch(/larger than 65536 bytes/);
    expect(pair.upstream.requests).toHaveLength(0);
  });

  test("a streamed (chunked) oversized body is cut off with a 413", async () => {
    const chunk = new Uint8Array(16 * 1024).fill(65);
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 8; i++) c.enqueue(chunk);
        c.close();
      },
    });
    const res = await fetch(`${pair.api}/api/v1/skybox`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(pair.upstream.requests).toHaveLength(0);
  });

  test("bodies that are neither JSON nor forms are refused", async () => {
    expect(
      (await fetch(`${pair.api}/api/v1/skybox`, { method: "POST", headers: { "content-type": "text/plain" }, body: "api_key=x" })).status,
    ).toBe(415);
    expect(
      (await fetch(`${pair.api}/api/v1/skybox`, { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" }))
        .status,
    ).toBe(400);
    expect(
      (await fetch(`${pair.api}/api/v1/skybox`, { method: "POST", headers: { "content-type": "application/json" }, body: "[1]" })).status,
    ).toBe(400);
    expect(pair.upstream.requests).toHaveLength(0);
  });
});

describe("CORS and origins", () => {
  const styles = () => `${pair.api}/api/v1/skybox/styles`;

  test("a configured origin gets CORS headers and its preflight answered", async () => {
    const pre = await fetch(styles(), {
      method: "OPTIONS",
      headers: {
        origin: "https://editor.example.test",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("https://editor.example.test");
    expect(pre.headers.get("access-control-allow-methods")).toContain("POST");
    expect(pre.headers.get("access-control-allow-headers")).toContain("content-type");
    const res = await fetch(styles(), { headers: { origin: "https://editor.example.test" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("https://editor.example.test");
    expect(res.headers.get("vary")).toContain("Origin");
    expect(pair.upstream.requests).toHaveLength(1);
  });

  test("another origin is refused, preflight and simple form POST alike, before any upstream request", async () => {
    const pre = await fetch(styles(), {
      method: "OPTIONS",
      headers: { origin: "https://evil.example.test", "access-control-request-method": "POST" },
    });
    expect(pre.status).toBe(403);
    expect(pre.headers.get("access-control-allow-origin")).toBeNull();
    const form = new FormData();
    form.append("prompt", "spend your credits");
    form.append("skybox_style_id", "2");
    const post = await fetch(`${pair.api}/api/v1/skybox`, { method: "POST", headers: { origin: "https://evil.example.test" }, body: form });
    expect(post.status).toBe(403);
    expect(post.headers.get("access-control-allow-origin")).toBeNull();
    expect((await fetch(styles(), { headers: { origin: "null" } })).status).toBe(403);
    expect(pair.upstream.requests).toHaveLength(0);
  });

  test("the proxy's own origin passes without CORS headers", async () => {
    const res = await fetch(styles(), { headers: { origin: pair.url } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("rate limit", () => {
  test("a client past its burst gets 429 with Retry-After; another client does not", async () => {
    const proxy = createSkyboxProxy({ apiKey: KEY, upstream: pair.upstream.url, rateLimit: { burst: 3, perSecond: 0.5 }, log: () => {} });
    const get = (ip: string) => proxy(new Request(`http://127.0.0.1/skybox/config`), { clientAddress: ip });
    for (let i = 0; i < 3; i++) expect((await get("10.0.0.1")).status).toBe(200);
    const refused = await get("10.0.0.1");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("2");
    expect((await refused.json()).error).toMatch(/Too many/);
    expect((await get("10.0.0.2")).status).toBe(200);
  });

  test("a trusted client header names the client (its last entry)", async () => {
    const proxy = createSkyboxProxy({
      apiKey: KEY,
      upstream: pair.upstream.url,
      rateLimit: { burst: 1, perSecond: 0.001, clientHeader: "x-forwarded-for" },
      log: () => {},
    });
    const get = (xff: string) =>
      proxy(new Request(`http://127.0.0.1/skybox/config`, { headers: { "x-forwarded-for": xff } }), { clientAddress: "127.0.0.1" });
    expect((await get("1.1.1.1, 10.0.0.1")).status).toBe(200);
    expect((await get("2.2.2.2, 10.0.0.1")).status).toBe(429);
    expect((await get("10.0.0.2")).status).toBe(200);
  });

  test("over real HTTP the socket address is the client", async () => {
    const limited = await startProxyPair(() => ({ body: [] }), { rateLimit: { burst: 2, perSecond: 0.01 } });
    try {
      const codes = [];
      for (let i = 0; i < 4; i++) codes.push((await fetch(`${limited.api}/api/v1/skybox/styles`)).status);
      expect(codes).toEqual([200, 200, 429, 429]);
      expect(limited.upstream.requests).toHaveLength(2);
    } finally {
      await limited.close();
    }
  });
});

describe("DNS rebinding", () => {
  test("on loopback, a request naming another host is refused before anything else", async () => {
    const res = await rawRequest(`${pair.api}/api/v1/skybox/styles`, {
      headers: { host: "rebound.example.test", origin: "http://rebound.example.test" },
    });
    expect(res.status).toBe(403);
    expect(pair.upstream.requests).toHaveLength(0);
    expect(
      (await rawRequest(`${pair.api}/api/v1/skybox/styles`, { headers: { host: `localhost:${new URL(pair.url).port}` } })).status,
    ).toBe(200);
  });
});
