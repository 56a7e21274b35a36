import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import type { Reply } from "../../helpers/recording-server.ts";
import { creationResponse, exportRecord } from "../../fixtures/api-shapes.ts";
import { BROWSER_KEY, KEY, rawRequest, startProxyPair } from "../proxy-fixture.ts";

let pair: Awaited<ReturnType<typeof startProxyPair>>;
let reply: Reply;

beforeAll(async () => {
  pair = await startProxyPair(() => reply, {
    publicUrl: "https://app.example.test",
    allowedWebhookUrls: ["https://mine.example.test/hook"],
  });
});
afterAll(() => pair.close());
beforeEach(() => {
  pair.upstream.requests.length = 0;
  reply = { body: creationResponse };
});

const WEBHOOK = "https://app.example.test/skybox/webhook";

describe("what reaches the upstream", () => {
  test("a GET: path, query without the browser's api_key, the proxy's key, no cookies or hop-by-hop headers", async () => {
    const res = await rawRequest(`${pair.api}/api/v1/imagine/myRequests?limit=5&api_key=${BROWSER_KEY}&API_KEY=x&api_key_id=3`, {
      headers: {
        "x-api-key": BROWSER_KEY,
        cookie: "session=abc",
        authorization: "Bearer t",
        connection: "keep-alive, x-hop",
        "x-hop": "1",
        te: "trailers",
        "proxy-authorization": "Basic eA==",
        "x-forwarded-for": "10.1.2.3",
        "accept-language": "fr",
      },
    });
    expect(res.status).toBe(200);
    const r = pair.upstream.last();
    expect(r.method).toBe("GET");
    expect(r.path).toBe("/api/v1/imagine/myRequests");
    expect(Object.fromEntries(r.query)).toEqual({ limit: "5", api_key_id: "3" });
    expect(r.headers["x-api-key"]).toBe(KEY);
    expect(r.headers["accept-language"]).toBe("fr");
    for (const h of ["cookie", "authorization", "x-hop", "te", "proxy-authorization", "x-forwarded-for"])
      expect(r.headers[h]).toBeUndefined();
    expect(JSON.stringify(r.headers)).not.toContain(BROWSER_KEY);
  });

  test("a JSON POST: body intact but for api_key, webhook_url added", async () => {
    const sent = {
      prompt: "a calm sea",
      skybox_style_id: 2,
      seed: 7,
      nested: { api_key: "kept: not a top-level key" },
      api_key: BROWSER_KEY,
    };
    const res = await fetch(`${pair.api}/api/v1/skybox`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(sent),
    });
    expect(res.status).toBe(200);
    const r = pair.upstream.last();
    expect(r.headers["content-type"]).toBe("application/json");
    const { api_key: _, ...rest } = sent;
    expect(r.json()).toEqual({ ...rest, webhook_url: WEBHOOK });
  });

  test("a webhook_url the browser gave is kept when the server lists it (allowedWebhookUrls)", async () => {
    await fetch(`${pair.api}/api/v1/skybox/export`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ skybox_id: "abc", type_id: 4, webhook_url: "https://mine.example.test/hook" }),
    });
    expect(pair.upstream.last().json()).toEqual({ skybox_id: "abc", type_id: 4, webhook_url: "https://mine.example.test/hook" });
  });

  test("a multipart POST: fields and file bytes intact, api_key field removed, webhook_url added", async () => {
    const bytes = new Uint8Array(70_000).map((_, i) => (i * 31) & 0xff);
    const form = new FormData();
    form.append("prompt", "like this picture");
    form.append("skybox_style_id", "2");
    form.append("api_key", BROWSER_KEY);
    form.append("quantity", "2");
    form.append("init_image", new Blob([bytes], { type: "image/png" }), "picture.png");
    const res = await fetch(`${pair.api}/api/v1/skybox/batch`, { method: "POST", body: form });
    expect(res.status).toBe(200);
    const got = await pair.upstream.last().form();
    expect([...got.keys()]).toEqual(["prompt", "skybox_style_id", "quantity", "init_image", "webhook_url"]);
    expect(got.get("prompt")).toBe("like this picture");
    expect(got.get("webhook_url")).toBe(WEBHOOK);
    const file = got.get("init_image") as File;
    expect(file.name).toBe("picture.png");
    expect(file.type).toBe("image/png");
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(bytes);
    expect(pair.upstream.last().body.includes(Buffer.from(BROWSER_KEY))).toBe(false);
  });

  test("a URL-encoded POST loses its api_key too", async () => {
    await fetch(`${pair.api}/api/v1/skybox`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `prompt=sea&skybox_style_id=2&api_key=${BROWSER_KEY}`,
    });
    expect(Object.fromEntries(new URLSearchParams(pair.upstream.last().body.toString()))).toEqual({
      prompt: "sea",
      skybox_style_id: "2",
      webhook_url: WEBHOOK,
    });
  });

  test("no webhook_url on routes that start no work, nor on GET and DELETE", async () => {
    await fetch(`${pair.api}/api/v1/skybox/export/${exportRecord.id}`, { method: "DELETE" });
    const r = pair.upstream.last();
    expect(r.method).toBe("DELETE");
    expect(r.path).toBe(`/api/v1/skybox/export/${exportRecord.id}`);
    expect(r.body.length).toBe(0);
  });
});

describe("what comes back", () => {
  test("upstream errors keep their status, message and Retry-After; cookies and banners stay behind", async () => {
    reply = {
      status: 422,
      body: { error: "Quantity must be a positive integer." },
      headers: { "set-cookie": "s=1", server: "upstream/1.0", "retry-after": "7", "access-control-allow-origin": "*" },
    };
    const res = await fetch(`${pair.api}/api/v1/skybox/batch`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ error: "Quantity must be a positive integer." });
    expect(res.headers.get("retry-after")).toBe("7");
    for (const h of ["set-cookie", "server", "access-control-allow-origin"]) expect(res.headers.get(h)).toBeNull();
  });

  test("a plain-text error passes through as text", async () => {
    reply = { status: 503, body: "Generations are paused" };
    const res = await fetch(`${pair.api}/api/v1/skybox/styles`);
    expect(res.status).toBe(503);
    expect(await res.text()).toBe("Generations are paused");
  });

  test("an upstream that echoes the key gets it scrubbed, in JSON, in text and in headers", async () => {
    reply = {
      status: 401,
      body: { error: `Invalid key ${KEY}`, url: `http://x/?api_key=${encodeURIComponent(KEY)}` },
      headers: { etag: `"${KEY}"` },
    };
    const res = await fetch(`${pair.api}/api/v1/skybox/styles`);
    const text = await res.text();
    expect(res.status).toBe(401);
    expect(text).not.toContain(KEY);
    expect(text).toContain("Invalid key [redacted]");
    expect(res.headers.get("etag")).not.toContain(KEY);
  });

  test("an upstream redirect is not followed (it would carry the key)", async () => {
    reply = { status: 302, headers: { location: "http://127.0.0.1:9/steal" } };
    const res = await fetch(`${pair.api}/api/v1/skybox/styles`);
    expect(res.status).toBe(502);
    expect(pair.upstream.requests).toHaveLength(1);
  });

  test("an unreachable upstream is a 502 that names no address or key", async () => {
    const { startSkyboxProxyServer } = await import("../../../src/proxy/index.ts");
    const dead = await startSkyboxProxyServer({ port: 0, apiKey: KEY, upstream: "http://127.0.0.1:9", log: () => {} });
    try {
      const res = await fetch(`${dead.url}/skybox/api/v1/skybox/styles`);
      expect(res.status).toBe(502);
      expect(await res.json()).toEqual({ error: "The Skybox API could not be reached" });
    } finally {
      await dead.close();
    }
  });
});
