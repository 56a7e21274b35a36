import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSkyboxProxy, signWebhook, toNodeHandler, type SkyboxProxy } from "../../../src/proxy/index.ts";
import { completeRecord } from "../../fixtures/api-shapes.ts";
import { KEY, SECRET } from "../proxy-fixture.ts";

const MiB = 1024 * 1024;
const CHUNK = 16 * 1024;
const now = () => String(Math.floor(Date.now() / 1000));
const SHAPED = "ab".repeat(32);

/** A body of `size` bytes handed out a chunk per pull, counting what the reader took. */
function countedBody(size: number) {
  const counter = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (counter.pulled >= size) return controller.close();
        const n = Math.min(CHUNK, size - counter.pulled);
        counter.pulled += n;
        controller.enqueue(new Uint8Array(n).fill(65));
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, counter };
}

function post(proxy: SkyboxProxy, body: ReadableStream<Uint8Array> | string, headers: Record<string, string>, client = "10.9.0.1") {
  const init = { method: "POST", headers: { "content-type": "application/json", ...headers }, body, duplex: "half" } as RequestInit;
  return proxy(new Request("http://127.0.0.1/skybox/webhook", init), { clientAddress: client });
}

describe("the webhook route checks before it reads", () => {
  let proxy: SkyboxProxy;
  beforeAll(() => {
    proxy = createSkyboxProxy({
      apiKey: KEY,
      apiSecret: SECRET,
      upstream: "http://127.0.0.1:9",
      log: () => {},
      webhooks: { maxBodyBytes: 256 * 1024 },
    });
  });
  afterAll(() => proxy.close());

  test("an unsigned, a stale, a badly signed-looking and an announced oversized POST are refused without reading their bodies", async () => {
    const cases: [Record<string, string>, number, RegExp][] = [
      [{ "x-timestamp": now() }, 401, /^x-signature: must be the hex HMAC-SHA256 of the body/],
      [{ "x-timestamp": now(), "x-signature": "not-hex" }, 401, /^x-signature: must be/],
      [{ "x-signature": SHAPED }, 401, /^x-timestamp: must be the Unix time in seconds, within 300 s of now \(is missing\)/],
      [{ "x-timestamp": "1000", "x-signature": SHAPED }, 401, /^x-timestamp: .*\(is "1000"\)/],
      [
        { "x-timestamp": now(), "x-signature": SHAPED, "content-length": String(MiB) },
        413,
        /^webhook: the body must be at most 262144 bytes \(webhooks\.maxBodyBytes\) \(is 1048576\)/,
      ],
    ];
    for (const [headers, status, message] of cases) {
      const { stream, counter } = countedBody(MiB);
      const res = await post(proxy, stream, headers);
      expect(res.status, JSON.stringify(headers)).toBe(status);
      expect((await res.json()).error).toMatch(message);
      expect(counter.pulled, JSON.stringify(headers)).toBeLessThanOrEqual(CHUNK);
    }
  });

  test("a streamed body past the limit is cut off there: read up to the limit, not to its end", async () => {
    const { stream, counter } = countedBody(4 * MiB);
    const res = await post(proxy, stream, { "x-timestamp": now(), "x-signature": SHAPED });
    expect(res.status).toBe(413);
    expect((await res.json()).error).toBe("webhook: the body must be at most 262144 bytes (webhooks.maxBodyBytes)");
    expect(counter.pulled).toBeLessThanOrEqual(256 * 1024 + CHUNK);
  });

  test("a signed message within the limits is still accepted", async () => {
    const body = JSON.stringify({ ...completeRecord, updated_at: "webhook-limits" });
    const res = await post(proxy, body, { "x-timestamp": now(), "x-signature": await signWebhook(body, SECRET) });
    expect(res.status).toBe(200);
  });

  test("bodies read at once are bounded: past maxConcurrent a 503 with Retry-After, nothing read", async () => {
    const own = createSkyboxProxy({
      apiKey: KEY,
      apiSecret: SECRET,
      upstream: "http://127.0.0.1:9",
      log: () => {},
      webhooks: { maxConcurrent: 2 },
    });
    // Two bodies that never end hold both places.
    const stalled = [0, 1].map(() => new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new Uint8Array(10)) }));
    const pending = stalled.map((s) => post(own, s, { "x-timestamp": now(), "x-signature": SHAPED }));
    await new Promise((r) => setTimeout(r, 20));
    const { stream, counter } = countedBody(MiB);
    const res = await post(own, stream, { "x-timestamp": now(), "x-signature": SHAPED });
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("1");
    expect((await res.json()).error).toMatch(/^webhook: 2 webhook bodies are being read already \(webhooks\.maxConcurrent\)/);
    expect(counter.pulled).toBe(0);
    own.close();
    void pending;
  });
});

describe("a flood of webhook POSTs over HTTP", () => {
  let server: Server;
  let url: string;
  const read = { bytes: 0 };
  beforeAll(async () => {
    const proxy = createSkyboxProxy({
      apiKey: KEY,
      apiSecret: SECRET,
      upstream: "http://127.0.0.1:9",
      log: () => {},
      webhooks: { burst: 50, perSecond: 0.1 },
    });
    // Counts the body bytes the proxy itself takes from each request.
    const counting = (request: Request, info?: { clientAddress?: string }) => {
      const body = request.body?.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({ transform: (c, out) => ((read.bytes += c.byteLength), out.enqueue(c)) }),
      );
      return proxy(new Request(request, body ? ({ body, duplex: "half" } as RequestInit) : {}), info);
    };
    server = createServer(toNodeHandler(counting));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/skybox/webhook`;
  });
  afterAll(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))));

  test("400 unsigned 1 MiB POSTs from one address: 401 until its budget is spent, then 429 with Retry-After; no body read", async () => {
    const body = new Uint8Array(MiB).fill(65);
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let i = 0; i < 50; i++) {
          const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", "x-timestamp": now() }, body });
          statuses.push(res.status);
          if (res.status === 429) retryAfter ??= res.headers.get("retry-after");
          await res.arrayBuffer();
        }
      }),
    );
    const count = (s: number) => statuses.filter((x) => x === s).length;
    expect(count(401) + count(429)).toBe(400);
    expect(count(401)).toBeGreaterThanOrEqual(50);
    expect(count(401)).toBeLessThan(80);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(read.bytes).toBe(0);
  }, 60_000);
});
