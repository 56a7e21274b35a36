import { startSkyboxProxyServer } from "../../src/proxy/proxy-server.ts";
import { startLocalProcess } from "../helpers/local-service.ts";
import { ms, percentile } from "./percentiles.ts";

const SEQUENTIAL = 400;
const CONCURRENCY = 32;
const LOAD_SECONDS = 5;

/** Latencies of `count` one-at-a-time GETs. */
async function sequential(url: string, headers: Record<string, string>, count: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await (await fetch(url, { headers })).arrayBuffer();
    out.push(performance.now() - t0);
  }
  return out;
}

/** Requests a second with `CONCURRENCY` clients for `LOAD_SECONDS`. */
async function throughput(url: string, headers: Record<string, string>): Promise<number> {
  let done = 0;
  const until = performance.now() + LOAD_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        await (await fetch(url, { headers })).arrayBuffer();
        done++;
      }
    }),
  );
  return done / LOAD_SECONDS;
}

/**
 * The proxy against the local service called directly, in one run: added latency p50/p99
 * of a status poll, and throughput.
 */
export async function proxyBench(): Promise<string[]> {
  const svc = await startLocalProcess({ speed: 1000, "rate-limit": 100_000_000 });
  const proxy = await startSkyboxProxyServer({ port: 0, upstream: svc.info.url, apiKey: svc.info.apiKey, apiSecret: svc.info.apiSecret, rateLimit: false });
  try {
    const key = { "x-api-key": svc.info.apiKey };
    const created = await (await fetch(`${svc.info.url}/api/v1/skybox`, { method: "POST", headers: { ...key, "content-type": "application/json" }, body: JSON.stringify({ prompt: "bench", skybox_style_id: 2 }) })).json();
    const direct = `${svc.info.url}/api/v1/imagine/requests/${created.id}`;
    const proxied = `${proxy.url}/skybox/api/v1/imagine/requests/${created.id}`;
    await sequential(direct, key, 50);
    await sequential(proxied, {}, 50);
    const d = await sequential(direct, key, SEQUENTIAL);
    const p = await sequential(proxied, {}, SEQUENTIAL);
    const added = (q: number) => percentile(p, q) - percentile(d, q);
    const directRate = await throughput(direct, key);
    const proxyRate = await throughput(proxied, {});
    return [
      `status poll, one at a time (n=${SEQUENTIAL}): direct p50 ${ms(percentile(d, 50))} p99 ${ms(percentile(d, 99))}; through the proxy p50 ${ms(percentile(p, 50))} p99 ${ms(percentile(p, 99))}`,
      `added by the proxy: p50 ${ms(added(50))}  p99 ${ms(added(99))}`,
      `throughput with ${CONCURRENCY} clients for ${LOAD_SECONDS} s: direct ${directRate.toFixed(0)} req/s, through the proxy ${proxyRate.toFixed(0)} req/s (${((proxyRate / directRate) * 100).toFixed(0)} %)`,
    ];
  } finally {
    await proxy.close();
    await svc.stop();
  }
}
