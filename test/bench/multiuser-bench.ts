/**
 * The proxy in production (`npm run bench -- multiuser`): throughput of an owned status poll
 * (user header, rate limit, ownership check, upstream) with the in-memory store against the
 * Redis store, the load coming from a separate process; and the latency of an event from a
 * webhook posted to instance A to a stream open on instance B, through Redis.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { signWebhook } from "../../src/api/rules/webhook-signature.ts";
import {
  createMemoryStore,
  createRedisStore,
  startSkyboxProxyServer,
  type ProxyStore,
  type SkyboxProxyServer,
} from "../../src/proxy/index.ts";
import { startLocalProcess, waitFor, type LocalProcess } from "../helpers/local-service.ts";
import { startRedisServer } from "../helpers/redis-server.ts";
import { storeReady } from "../proxy/multiuser/deployment.ts";
import { ms, percentile } from "./percentiles.ts";

const LOAD_SECONDS = 5;
const CONCURRENCY = 32;
const EVENTS = 300;
const USER = { "x-user": "bench-user" };

interface Load {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function loadFrom(url: string, headers: Record<string, string>): Promise<Load> {
  const spec = JSON.stringify({ url, headers, seconds: LOAD_SECONDS, concurrency: CONCURRENCY });
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "test/bench/load-client.ts", spec], {
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout) as Load;
}

function startProxy(svc: LocalProcess, store: ProxyStore | null): Promise<SkyboxProxyServer> {
  return startSkyboxProxyServer({
    port: 0,
    upstream: svc.info.url,
    apiKey: svc.info.apiKey,
    apiSecret: svc.info.apiSecret,
    log: () => {},
    rateLimit: { burst: 1e9, perSecond: 1e9 },
    ...(store ? { store, userHeader: "x-user", adminUsers: ["bench-admin"] } : {}),
  });
}

/** Req/s and latency of one owned status poll through `proxy`. */
async function pollLoad(proxy: SkyboxProxyServer, headers: Record<string, string>): Promise<Load> {
  const api = `${proxy.url}/skybox/api/v1`;
  const created = (await (
    await fetch(`${api}/skybox`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ prompt: "bench", skybox_style_id: 2 }),
    })
  ).json()) as { id: number };
  return loadFrom(`${api}/imagine/requests/${created.id}`, headers);
}

async function eventLatency(a: SkyboxProxyServer, b: SkyboxProxyServer, secret: string): Promise<number[]> {
  const channel = "status_update_bench";
  const aborter = new AbortController();
  const res = await fetch(`${b.url}/skybox/events?channel=${channel}`, { headers: { "x-user": "bench-admin" }, signal: aborter.signal });
  const reader = res.body!.getReader();
  const arrived: number[] = [];
  void (async () => {
    let text = "";
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      text += new TextDecoder().decode(value);
      for (let i = text.indexOf("\n\n"); i >= 0; i = text.indexOf("\n\n")) {
        if (text.slice(0, i).includes("event: status_update")) arrived.push(performance.now());
        text = text.slice(i + 2);
      }
    }
  })();
  const samples: number[] = [];
  for (let i = 0; i < EVENTS; i++) {
    const body = JSON.stringify({
      id: 1,
      obfuscated_id: "bench",
      pusher_channel: channel,
      status: "processing",
      updated_at: `${Date.now()}-${i}`,
    });
    const headers = {
      "content-type": "application/json",
      "x-timestamp": String(Math.floor(Date.now() / 1000)),
      "x-signature": await signWebhook(body, secret),
    };
    const t0 = performance.now();
    await fetch(`${a.url}/skybox/webhook`, { method: "POST", headers, body });
    await waitFor(() => arrived.length > i, 5000, 0.1);
    samples.push(arrived[i]! - t0);
  }
  aborter.abort();
  return samples;
}

export async function multiuserBench(): Promise<string[]> {
  const svc = await startLocalProcess({ speed: 1000, "rate-limit": 100_000_000 });
  const redis = await startRedisServer();
  const stores: ProxyStore[] = [];
  const proxies: SkyboxProxyServer[] = [];
  try {
    const memory = createMemoryStore();
    const [shared1, shared2] = [0, 1].map(() => createRedisStore({ url: redis.url, log: () => {} }));
    stores.push(memory, shared1!, shared2!);
    await Promise.all([storeReady(shared1!), storeReady(shared2!)]);
    const [plain, inMemory, onRedis, onRedisB] = await Promise.all([
      startProxy(svc, null),
      startProxy(svc, memory),
      startProxy(svc, shared1!),
      startProxy(svc, shared2!),
    ]);
    proxies.push(plain, inMemory, onRedis, onRedisB);
    const rows: [string, Load][] = [
      ["one user, no store use", await pollLoad(plain, {})],
      ["users, in-memory store", await pollLoad(inMemory, USER)],
      ["users, Redis store", await pollLoad(onRedis, USER)],
    ];
    const latency = await eventLatency(onRedis, onRedisB, svc.info.apiSecret);
    return [
      `owned status poll, ${CONCURRENCY} clients for ${LOAD_SECONDS} s from another process (user header, rate limit, ownership check, upstream):`,
      ...rows.map(
        ([name, l]) => `  ${name}: ${l.rps.toFixed(0)} req/s, p50 ${ms(l.p50)} p99 ${ms(l.p99)}${l.errors ? `, ${l.errors} errors` : ""}`,
      ),
      `  Redis against memory: ${((rows[2]![1].rps / rows[1]![1].rps) * 100).toFixed(0)} % of the throughput`,
      `event from a webhook on instance A to a stream on instance B through Redis (n=${EVENTS}): p50 ${ms(percentile(latency, 50))} p99 ${ms(percentile(latency, 99))}`,
    ];
  } finally {
    await Promise.all(proxies.map((p) => p.close()));
    await Promise.all(stores.map((s) => s.close()));
    await redis.stop();
    await svc.stop();
  }
}
