import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSkyboxProxy, type SkyboxProxy } from "../../../src/proxy/index.ts";
import { KEY, SECRET, startProxyPair } from "../proxy-fixture.ts";

/** Opens `/events` as `client`; the stream stays open until `close`. */
async function open(proxy: SkyboxProxy, client: string, channel = "status_update_caps") {
  const aborter = new AbortController();
  const res = await proxy(new Request(`http://127.0.0.1/skybox/events?channel=${channel}`, { signal: aborter.signal }), {
    clientAddress: client,
  });
  return { res, close: () => (aborter.abort(), res.body?.cancel().catch(() => {})) };
}

describe("event streams per client", () => {
  let proxy: SkyboxProxy;
  beforeAll(() => {
    proxy = createSkyboxProxy({
      apiKey: KEY,
      apiSecret: SECRET,
      upstream: "http://127.0.0.1:9",
      log: () => {},
      events: { maxSubscribers: 10, maxPerClient: 3 },
    });
  });
  afterAll(() => proxy.close());

  test("one client opening streams in a loop holds its share only; another client still gets streams", async () => {
    const held: Awaited<ReturnType<typeof open>>[] = [];
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) {
        const s = await open(proxy, "10.0.0.1");
        statuses.push(s.res.status);
        if (s.res.status === 200) held.push(s);
      }
      expect(statuses.filter((s) => s === 200)).toHaveLength(3);
      const refused = await open(proxy, "10.0.0.1");
      expect(refused.res.status).toBe(429);
      expect(refused.res.headers.get("retry-after")).toBe("5");
      expect((await refused.res.json()).error).toBe(
        "events: this client already holds 3 event streams, the most one client may open (events.maxPerClient); close one and retry",
      );
      for (let i = 0; i < 3; i++) {
        const other = await open(proxy, "10.0.0.2");
        expect(other.res.status).toBe(200);
        held.push(other);
      }
      // Closing a stream gives the client its place back.
      void held.shift()!.close();
      await expect
        .poll(async () => {
          const again = await open(proxy, "10.0.0.1");
          if (again.res.status === 200) held.push(again);
          return again.res.status;
        })
        .toBe(200);
    } finally {
      held.forEach((s) => void s.close());
    }
  });

  test("a client gone before its stream began holds no place", async () => {
    const aborter = new AbortController();
    aborter.abort();
    for (let i = 0; i < 5; i++) {
      const res = await proxy(new Request("http://127.0.0.1/skybox/events?channel=status_update_gone", { signal: aborter.signal }), {
        clientAddress: "10.2.0.1",
      });
      expect(res.status).toBe(200);
    }
    const live = await open(proxy, "10.2.0.1");
    expect(live.res.status).toBe(200);
    void live.close();
  });

  test("when every slot is taken the refusal names the proxy's limit (503, Retry-After)", async () => {
    const held = [];
    try {
      for (let c = 0; c < 4; c++) for (let i = 0; i < 3; i++) held.push(await open(proxy, `10.1.0.${c}`));
      expect(held.filter((s) => s.res.status === 200)).toHaveLength(10);
      const full = await open(proxy, "10.1.0.9");
      expect(full.res.status).toBe(503);
      expect(full.res.headers.get("retry-after")).toBe("5");
      expect((await full.res.json()).error).toMatch(/^events: all 10 event streams of the proxy are in use \(events\.maxSubscribers\)/);
    } finally {
      held.forEach((s) => void s.close());
    }
  });
});

describe("over HTTP, the client is the rate limit's client", () => {
  test("one address is capped; a client named by the trusted header still subscribes", async () => {
    const pair = await startProxyPair(() => ({ body: {} }), {
      events: { maxPerClient: 2 },
      rateLimit: { clientHeader: "x-forwarded-for" },
    });
    const aborters: AbortController[] = [];
    const get = async (headers: Record<string, string> = {}) => {
      const aborter = new AbortController();
      aborters.push(aborter);
      const res = await fetch(`${pair.api}/events?channel=status_update_http`, { headers, signal: aborter.signal });
      return res.status;
    };
    try {
      expect([await get(), await get(), await get(), await get()]).toEqual([200, 200, 429, 429]);
      expect(await get({ "x-forwarded-for": "203.0.113.7" })).toBe(200);
    } finally {
      aborters.forEach((a) => a.abort());
      await pair.close();
    }
  });
});
