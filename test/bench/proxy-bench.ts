/**
 * The proxy against the local service called directly. Each runs as its own process
 * (`babylon-skybox local`, `babylon-skybox proxy`), load comes from autocannon and curl in
 * processes of their own, and both sides of each ratio are measured with the same settings,
 * interleaved so that a change in the machine's load falls on both.
 */
import { startLocalProcess, waitFor, type LocalProcess } from "../helpers/local-service.ts";
import { startProxyProcess } from "../helpers/proxy-process.ts";
import { download, downloadCommand } from "./asset-stream.ts";
import { loadCommand, runLoad, type LoadSpec } from "./autocannon-load.ts";
import { pairedLatency } from "./paired-latency.ts";
import { ms } from "./percentiles.ts";
import { cpuMicrosOf, peakRssDuring, rssOf } from "./process-usage.ts";

const CONNECTIONS = 32;
const LOAD_SECONDS = 3;
/** direct, proxy, proxy, direct: a drift in the machine's load weighs on both sides alike. */
const LOAD_ORDER = ["direct", "proxy", "proxy", "direct"] as const;
const PAIRS = 2000;
const DOWNLOADS = 3;
/** A 16K HDRI export of a generation rendered at this scale is a 9830 × 4915 file of 40 to 80 MB (its RLE varies with the picture; an 8K one at full scale is about 38 MB). */
const IMAGE_SCALE = 0.6;
const RATE_LIMIT = "1000000";

const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
const hidden = (name: string, value: string) => (name === "x-api-key" ? "$SKYBOX_API_KEY" : value);

export async function proxyBench(): Promise<string[]> {
  const svc = await startLocalProcess({ speed: 1000, "rate-limit": 100_000_000, "image-scale": IMAGE_SCALE });
  const proxy = await startProxyProcess({ apiKey: svc.info.apiKey, apiSecret: svc.info.apiSecret }, { upstream: svc.info.url, "rate-limit": RATE_LIMIT });
  try {
    const key = { "x-api-key": svc.info.apiKey };
    const { generationId, fileUrl } = await largeExport(svc);
    const direct = { url: `${svc.info.url}/api/v1/imagine/requests/${generationId}`, headers: key };
    const proxied = { url: `${proxy.info.url}/skybox/api/v1/imagine/requests/${generationId}` };
    const setup = `babylon-skybox local --speed 1000 --rate-limit 100000000 --image-scale ${IMAGE_SCALE}; SKYBOX_API_KEY=… babylon-skybox proxy --upstream $SERVICE --rate-limit ${RATE_LIMIT}`;
    const lines = [`setup: ${setup}; a complete generation's status (GET /api/v1/imagine/requests/{id}, ${(await statusBytes(direct))} bytes of JSON)`];
    lines.push(...(await throughput(direct, proxied, { service: svc.child.pid!, proxy: proxy.child.pid! })));
    const paired = await pairedLatency(direct, proxied, PAIRS);
    lines.push(
      `added latency, ${PAIRS} paired requests one at a time (proxy − direct per pair, order alternating): p50 ${ms(paired.p50)}  p99 ${ms(paired.p99)}  (medians: direct ${ms(paired.directP50)}, proxy ${ms(paired.proxyP50)})`,
    );
    lines.push(...(await assetStreaming(fileUrl, `${proxy.info.url}/skybox/assets/http/${new URL(fileUrl).host}${new URL(fileUrl).pathname}`, proxy.child.pid!)));
    return lines;
  } finally {
    await proxy.stop();
    await svc.stop();
  }
}

async function statusBytes(target: { url: string; headers: Record<string, string> }): Promise<number> {
  return (await (await fetch(target.url, { headers: target.headers })).arrayBuffer()).byteLength;
}

/** A complete generation and its 16K HDRI export, made through the service's API. */
async function largeExport(svc: LocalProcess): Promise<{ generationId: number; fileUrl: string }> {
  const api = `${svc.info.url}/api/v1`;
  const headers = { "x-api-key": svc.info.apiKey, "content-type": "application/json" };
  const call = async (path: string, body?: unknown) => (await fetch(`${api}${path}`, body ? { method: "POST", headers, body: JSON.stringify(body) } : { headers })).json();
  const created = await call("/skybox", { prompt: "bench", skybox_style_id: 2 });
  const done = await waitFor(async () => {
    const { request } = await call(`/imagine/requests/${created.id}`);
    return request.status === "complete" && request;
  }, 120_000, 100);
  const ordered = await call("/skybox/export", { skybox_id: done.obfuscated_id, type_id: 4, resolution_id: 7 });
  const exported = await waitFor(async () => {
    const e = await call(`/skybox/export/${ordered.id}`);
    if (e.status === "error") throw new Error(`export failed: ${e.error_message}`);
    return e.status === "complete" && e;
  }, 120_000, 200);
  return { generationId: created.id, fileUrl: exported.file_url };
}

/** Req/s of each side, and the CPU time each server process spent per request (from /proc). */
async function throughput(direct: Omit<LoadSpec, "connections" | "seconds">, proxied: Omit<LoadSpec, "connections" | "seconds">, pids: { service: number; proxy: number }): Promise<string[]> {
  const spec = (side: "direct" | "proxy", seconds = LOAD_SECONDS): LoadSpec => ({ ...(side === "direct" ? direct : proxied), connections: CONNECTIONS, seconds });
  // Warm-up: both sides' code optimised before anything counts.
  await runLoad(spec("direct", 2));
  await runLoad(spec("proxy", 2));
  const rps = { direct: [] as number[], proxy: [] as number[] };
  const cpu = { direct: { service: 0, proxy: 0, requests: 0 }, proxy: { service: 0, proxy: 0, requests: 0 } };
  let failed = 0;
  for (const side of LOAD_ORDER) {
    const [s0, p0] = [cpuMicrosOf(pids.service), cpuMicrosOf(pids.proxy)];
    const r = await runLoad(spec(side));
    rps[side].push(r.rps);
    failed += r.failed;
    cpu[side].service += cpuMicrosOf(pids.service) - s0;
    cpu[side].proxy += cpuMicrosOf(pids.proxy) - p0;
    cpu[side].requests += r.requests;
  }
  const per = (side: "direct" | "proxy", who: "service" | "proxy") => (cpu[side][who] / cpu[side].requests).toFixed(0);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const [d, p] = [mean(rps.direct), mean(rps.proxy)];
  const each = (side: "direct" | "proxy") => rps[side].map((r) => r.toFixed(0)).join(", ");
  return [
    `throughput, ${CONNECTIONS} connections, ${LOAD_SECONDS} s per run (${LOAD_ORDER.join(", ")}): direct ${d.toFixed(0)} req/s (${each("direct")}), through the proxy ${p.toFixed(0)} req/s (${each("proxy")}); ratio ${(p / d).toFixed(2)}${failed ? `; ${failed} failed requests` : ""}`,
    `CPU time per request in those runs: the service ${per("direct", "service")} µs called directly, ${per("proxy", "service")} µs behind the proxy; the proxy ${per("proxy", "proxy")} µs`,
    `  ${loadCommand(spec("direct"), hidden)}`,
    `  ${loadCommand(spec("proxy"), hidden)}`,
  ];
}

async function assetStreaming(direct: string, proxied: string, proxyPid: number): Promise<string[]> {
  await download(direct);
  await download(proxied);
  const before = rssOf(proxyPid);
  const speeds = { direct: [] as number[], proxy: [] as number[] };
  let bytes = 0;
  const { peak } = await peakRssDuring(proxyPid, async () => {
    for (let i = 0; i < DOWNLOADS; i++) {
      for (const side of i % 2 ? (["proxy", "direct"] as const) : (["direct", "proxy"] as const)) {
        const r = await download(side === "direct" ? direct : proxied);
        speeds[side].push(r.bytesPerSecond);
        bytes = r.bytes;
      }
    }
  });
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const [d, p] = [mean(speeds.direct), mean(speeds.proxy)];
  return [
    `asset streaming, a 16K HDRI export (${mb(bytes)}), ${DOWNLOADS} downloads each, alternating: direct ${mb(d)}/s, through the proxy ${mb(p)}/s; ratio ${(p / d).toFixed(2)}; proxy RSS ${mb(before)} before, peak ${mb(peak)} (growth ${mb(peak - before)})`,
    `  ${downloadCommand(direct)}`,
    `  ${downloadCommand(proxied)}`,
  ];
}
