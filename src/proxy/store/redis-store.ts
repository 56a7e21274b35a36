/**
 * The proxy's store in Redis, shared by every instance of a deployment (node-redis,
 * `@redis/client`). Two connections: one for commands, one subscribed to the topics.
 *
 * Failing fast is the point: commands are never queued while Redis is away (the offline
 * queue is off), and every operation has a deadline, so a request meets a
 * StoreUnavailableError (a 503) at once when Redis is down, and within `timeoutMs` when it
 * hangs. Both connections reconnect by themselves; the subscriber resubscribes, and tells
 * subscribers through `onGap` that messages sent meanwhile were missed.
 */
import type { EventEmitter } from "node:events";
import { createClient } from "@redis/client";
import type { ProxyStore } from "./proxy-store.ts";
import { StoreUnavailableError } from "./proxy-store.ts";
import { REDIS_SCRIPTS } from "./redis-scripts.ts";

/** Where the shared Redis is and how long each operation may take. */
export interface RedisStoreOptions {
  /** @example "redis://127.0.0.1:6379" */
  url: string;
  /** Prefix of every key and topic, so deployments can share one Redis. @default "skybox:" */
  keyPrefix?: string;
  /** Longest wait for one operation before it fails (a 503). @default 2000 */
  timeoutMs?: number;
  /** Where connection trouble is reported, once per outage. @default console.error */
  log?: (line: string) => void;
}

type Handler = (message: string) => number | void;

/** A store in Redis, shared by every instance of the proxy (relay, rate limits, replay guard, ledger, spend). */
export function createRedisStore(options: RedisStoreOptions): ProxyStore {
  const prefix = options.keyPrefix ?? "skybox:";
  const timeoutMs = options.timeoutMs ?? 2000;
  const log = options.log ?? ((line: string) => console.error(line));
  const socket = { connectTimeout: timeoutMs, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 1000) };
  const client = createClient({ url: options.url, disableOfflineQueue: true, pingInterval: 5000, socket, scripts: REDIS_SCRIPTS });
  // The subscriber queues its SUBSCRIBEs until connected and replays them after a reconnect.
  const subscriber = createClient({ url: options.url, pingInterval: 5000, socket });
  const topics = new Map<string, Set<Handler>>();
  const gapListeners = new Set<() => void>();
  let closed = false;

  watchConnection(client, "commands", log, () => {});
  watchConnection(subscriber, "subscriber", log, () => gapListeners.forEach((gap) => gap()));
  void client.connect().catch(() => {});
  void subscriber.connect().catch(() => {});

  const k = (key: string) => `${prefix}${key}`;
  const within = async <T>(operation: () => Promise<T>): Promise<T> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new StoreUnavailableError(`Redis did not answer within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([operation(), late]);
    } catch (error) {
      throw error instanceof StoreUnavailableError ? error : new StoreUnavailableError(`Redis: ${(error as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    kind: "redis",
    takeToken: (key, burst, perSecond) =>
      within(async () => {
        const { ok, value } = await client.takeToken(k(key), burst, perSecond);
        return { ok, retryAfter: value };
      }),
    claim: (key, ttlMs) =>
      within(async () => (await client.set(k(key), "1", { condition: "NX", expiration: { type: "PX", value: ttlMs } })) === "OK"),
    release: (key) => within(async () => void (await client.del(k(key)))),
    put: (entries, ttlMs) =>
      within(async () => {
        if (!entries.length) return;
        const multi = client.multi();
        for (const [key, value] of entries)
          multi.set(k(key), value, ttlMs === undefined ? undefined : { expiration: { type: "PX", value: ttlMs } });
        await multi.exec();
      }),
    get: (keys) => within(async () => (keys.length ? (await client.mGet(keys.map(k))).map((v) => (v === null ? null : String(v))) : [])),
    take: (key) =>
      within(async () => {
        const value = await client.getDel(k(key));
        return value === null ? null : String(value);
      }),
    addWithin: (key, amount, ceiling, ttlMs) => within(() => client.addWithin(k(key), amount, ceiling ?? -1, ttlMs)),
    indexAdd: (key, member, score) => within(async () => void (await client.zAdd(k(key), { score, value: member }))),
    indexRemove: (key, members) => within(async () => void (members.length && (await client.zRem(k(key), [...members])))),
    indexPage: (key, offset, count, desc) =>
      within(async () => {
        if (count <= 0) return { members: [], total: Number(await client.zCard(k(key))) };
        // One transaction: the count and the page describe the same moment.
        const [total, members] = (await client
          .multi()
          .zCard(k(key))
          .zRange(k(key), offset, offset + count - 1, desc ? { REV: true } : undefined)
          .exec()) as unknown as [number, string[]];
        return { members: members.map(String), total: Number(total) };
      }),
    publish: (topic, message) => within(async () => Number(await client.publish(k(topic), message))),
    subscribe(topic, onMessage, onGap) {
      const handlers = topics.get(topic) ?? new Set<Handler>();
      if (!topics.has(topic)) {
        topics.set(topic, handlers);
        subscriber
          .subscribe(k(topic), (message) => handlers.forEach((h) => h(String(message))))
          .catch((error: Error) => log(`babylon-skybox proxy: Redis subscribe failed: ${error.message}`));
      }
      handlers.add(onMessage);
      if (onGap) gapListeners.add(onGap);
      return () => {
        handlers.delete(onMessage);
        if (onGap) gapListeners.delete(onGap);
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      client.destroy();
      subscriber.destroy();
    },
  };
}

/** Logs an outage once and its end, and calls `onLost` when a ready connection drops. */
function watchConnection(client: Pick<EventEmitter, "on">, name: string, log: (line: string) => void, onLost: () => void) {
  let up = false;
  let reported = false;
  client.on("ready", () => {
    if (reported) log(`babylon-skybox proxy: Redis ${name} connection is back`);
    up = true;
    reported = false;
  });
  client.on("error", (error: Error) => {
    if (up) onLost();
    up = false;
    if (!reported) log(`babylon-skybox proxy: Redis ${name} connection failed (${error.message}); retrying`);
    reported = true;
  });
}
