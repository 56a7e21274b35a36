/**
 * The two stores keep one contract: the same tests run on the memory store and on a real
 * redis-server, and a second Redis store on the same server plays a second instance.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createMemoryStore } from "../../../src/proxy/store/memory-store.ts";
import type { ProxyStore } from "../../../src/proxy/store/proxy-store.ts";
import { StoreUnavailableError } from "../../../src/proxy/store/proxy-store.ts";
import { createRedisStore } from "../../../src/proxy/store/redis-store.ts";
import { waitFor } from "../../helpers/local-service.ts";
import { startRedisServer, type RedisServer } from "../../helpers/redis-server.ts";

let redis: RedisServer;
const opened: ProxyStore[] = [];
const memory = createMemoryStore();
const redisStore = (prefix = "t:") => {
  const store = createRedisStore({ url: redis.url, keyPrefix: prefix, log: () => {} });
  opened.push(store);
  return store;
};

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
  await redis?.stop();
});

let n = 0;
const unique = (name: string) => `${name}-${n++}`;

describe.each([
  ["memory", () => [memory, memory] as const],
  ["redis", () => [redisStore(), redisStore()] as const],
])("the %s store", (_, open) => {
  let a: ProxyStore;
  let b: ProxyStore;
  beforeAll(async () => {
    [a, b] = open();
    await waitFor(
      async () =>
        (await a.get(["x"]).then(
          () => true,
          () => false,
        )) &&
        (await b.get(["x"]).then(
          () => true,
          () => false,
        )),
      5000,
    );
  });

  test("a token bucket is one budget whichever instance takes from it", async () => {
    const key = unique("bucket");
    const takes = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).takeToken(key, 4, 0.001)));
    expect(takes.filter((t) => t.ok)).toHaveLength(4);
    expect(takes.filter((t) => !t.ok).every((t) => t.retryAfter >= 1)).toBe(true);
    expect((await a.takeToken(unique("bucket"), 4, 0.001)).ok).toBe(true);
  });

  test("a claim has one winner until released", async () => {
    const key = unique("claim");
    expect(await Promise.all([a.claim(key, 60_000), b.claim(key, 60_000)])).toSatisfy((r: boolean[]) => r.filter(Boolean).length === 1);
    await b.release(key);
    expect(await a.claim(key, 60_000)).toBe(true);
  });

  test("values are put, read and taken once", async () => {
    const [k1, k2] = [unique("v"), unique("v")];
    await a.put([
      [k1, "one"],
      [k2, "two"],
    ]);
    expect(await b.get([k1, k2, unique("none")])).toEqual(["one", "two", null]);
    expect(await Promise.all([a.take(k1), b.take(k1)])).toSatisfy((r: (string | null)[]) => r.filter((v) => v === "one").length === 1);
    expect(await a.get([k1])).toEqual([null]);
  });

  test("a counter stops at its ceiling atomically, and a refund on an expired counter does nothing", async () => {
    const key = unique("spend");
    const adds = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).addWithin(key, 3, 10, 60_000)));
    expect(adds.filter((r) => r.ok)).toHaveLength(3);
    expect((await a.addWithin(key, 0, 10, 60_000)).value).toBe(9);
    expect(await a.addWithin(key, -4, null, 60_000)).toEqual({ ok: true, value: 5 });
    expect(await b.addWithin(unique("gone"), -4, null, 60_000)).toEqual({ ok: true, value: 0 });
  });

  test("an index pages by score both ways with its total", async () => {
    const key = unique("index");
    for (const [m, s] of [
      ["c", 3],
      ["a", 1],
      ["b", 2],
      ["d", 4],
    ] as const)
      await a.indexAdd(key, m, s);
    expect(await b.indexPage(key, 1, 2, true)).toEqual({ members: ["c", "b"], total: 4 });
    expect(await b.indexPage(key, 0, 3, false)).toEqual({ members: ["a", "b", "c"], total: 4 });
    await a.indexRemove(key, ["b"]);
    expect(await b.indexPage(key, 0, 10, true)).toEqual({ members: ["d", "c", "a"], total: 3 });
  });

  test("a message reaches each subscriber on every instance once, the publisher's own included", async () => {
    const topic = unique("topic");
    const got: string[] = [];
    const stopA = a.subscribe(topic, (m) => void got.push(`a:${m}`));
    const stopB = b.subscribe(topic, (m) => void got.push(`b:${m}`));
    // A Redis subscription is live once a probe comes back to it; probes still in flight
    // then arrive before "hello" (one publisher's messages keep their order), and are not counted.
    await waitFor(async () => (await a.publish(topic, "probe")) >= 2 && got.includes("a:probe") && got.includes("b:probe"), 5000);
    const hellos = () => got.filter((m) => !m.endsWith(":probe"));
    await a.publish(topic, "hello");
    await waitFor(() => hellos().length >= 2, 5000);
    await new Promise((r) => setTimeout(r, 50));
    expect(hellos().sort()).toEqual(["a:hello", "b:hello"]);
    stopA();
    stopB();
  });
});

describe("the redis store when Redis goes away", () => {
  test("fails at once with StoreUnavailableError while Redis is down, and works again after it is back", async () => {
    const store = redisStore("down:");
    await waitFor(
      () =>
        store.get(["x"]).then(
          () => true,
          () => false,
        ),
      5000,
    );
    let gaps = 0;
    store.subscribe(
      "t",
      () => {},
      () => gaps++,
    );
    await redis.kill();
    const t0 = Date.now();
    await expect(store.takeToken("k", 1, 1)).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(Date.now() - t0).toBeLessThan(2500);
    await redis.restart();
    await waitFor(
      () =>
        store.put([["k", "v"]]).then(
          () => true,
          () => false,
        ),
      10_000,
    );
    expect(await store.get(["k"])).toEqual(["v"]);
    expect(gaps).toBe(1);
  });

  test("answers within its deadline when Redis hangs", async () => {
    const store = createRedisStore({ url: redis.url, keyPrefix: "hang:", timeoutMs: 500, log: () => {} });
    opened.push(store);
    await waitFor(
      () =>
        store.get(["x"]).then(
          () => true,
          () => false,
        ),
      5000,
    );
    redis.freeze();
    try {
      const t0 = Date.now();
      await expect(store.claim("k", 1000)).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(Date.now() - t0).toBeLessThan(1500);
    } finally {
      redis.resume();
    }
  });
});
