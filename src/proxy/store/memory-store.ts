/**
 * The proxy's store in this process's memory: right for one instance (and the default).
 * Several proxies created in one process with the same memory store share it as instances
 * sharing Redis would. Nothing survives a restart: records made before it have no known
 * owner (administrators only). Expired entries are dropped lazily, so no timer runs.
 */
import { TokenBucket } from "../../api/limits/token-bucket.ts";
import { ReplayGuard } from "../webhooks/replay-guard.ts";
import type { ProxyStore, TokenDecision } from "./proxy-store.ts";

/** Bounds of the in-process store. */
export interface MemoryStoreOptions {
  /** Rate-limit keys remembered per bucket size; the least recently seen is forgotten first. @default 10000 */
  maxBucketKeys?: number;
  /** Claims remembered per lifetime. @default 10000 */
  maxClaims?: number;
  /** The clock, in milliseconds. @default Date.now */
  now?: () => number;
}

type Handler = (message: string) => number | void;

/** The default store: rate limits, replay guard, ledger and relay in this process only (one instance). */
export function createMemoryStore(options: MemoryStoreOptions = {}): ProxyStore {
  const now = options.now ?? Date.now;
  const buckets = new Map<string, TokenBucket>();
  const claims = new Map<number, ReplayGuard>();
  const values = new Map<string, { value: string; expires: number }>();
  const indexes = new Map<string, Map<string, number>>();
  const topics = new Map<string, Set<Handler>>();

  const read = (key: string): string | null => {
    const entry = values.get(key);
    if (entry && entry.expires <= now()) values.delete(key);
    return entry && entry.expires > now() ? entry.value : null;
  };
  const write = (key: string, value: string, ttlMs?: number) =>
    values.set(key, { value, expires: ttlMs === undefined ? Infinity : now() + ttlMs });
  const guardFor = (ttlMs: number) => {
    const guard = claims.get(ttlMs) ?? new ReplayGuard(ttlMs, options.maxClaims ?? 10_000, now);
    claims.set(ttlMs, guard);
    return guard;
  };

  const store: ProxyStore = {
    kind: "memory",
    async takeToken(key, burst, perSecond): Promise<TokenDecision> {
      const size = `${burst}/${perSecond}`;
      const bucket = buckets.get(size) ?? new TokenBucket({ burst, perSecond, maxKeys: options.maxBucketKeys ?? 10_000, now });
      buckets.set(size, bucket);
      return bucket.take(key);
    },
    async claim(key, ttlMs) {
      return guardFor(ttlMs).firstSeen(key);
    },
    async release(key) {
      for (const guard of claims.values()) guard.forget(key);
    },
    async put(entries, ttlMs) {
      for (const [key, value] of entries) write(key, value, ttlMs);
    },
    async get(keys) {
      return keys.map(read);
    },
    async take(key) {
      const value = read(key);
      values.delete(key);
      return value;
    },
    async addWithin(key, amount, ceiling, ttlMs) {
      const current = read(key);
      if (current === null && amount < 0) return { ok: true, value: 0 };
      const value = Number(current ?? 0);
      if (amount > 0 && ceiling !== null && value + amount > ceiling) return { ok: false, value };
      const next = Math.max(0, value + amount);
      write(key, String(next), ttlMs);
      return { ok: true, value: next };
    },
    async indexAdd(key, member, score) {
      const index = indexes.get(key) ?? new Map<string, number>();
      index.set(member, score);
      indexes.set(key, index);
    },
    async indexRemove(key, members) {
      const index = indexes.get(key);
      for (const m of members) index?.delete(m);
    },
    async indexPage(key, offset, count, desc) {
      const entries = [...(indexes.get(key) ?? new Map<string, number>())];
      // Ties by member, as Redis orders a sorted set.
      entries.sort(([ma, a], [mb, b]) => a - b || (ma < mb ? -1 : ma > mb ? 1 : 0));
      if (desc) entries.reverse();
      return { members: entries.slice(offset, offset + count).map(([m]) => m), total: entries.length };
    },
    async publish(topic, message) {
      let received = 0;
      for (const handler of [...(topics.get(topic) ?? [])]) received += handler(message) ?? 1;
      return received;
    },
    subscribe(topic, onMessage) {
      const handlers = topics.get(topic) ?? new Set<Handler>();
      handlers.add(onMessage);
      topics.set(topic, handlers);
      return () => handlers.delete(onMessage);
    },
    async close() {
      topics.clear();
    },
  };
  return store;
}
