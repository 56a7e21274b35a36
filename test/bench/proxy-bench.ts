/**
 * The proxy against the local service called directly, and against a bare proxy
 * (bare-proxy.mjs: the least a Node proxy can do) as the floor on this machine. Each runs as
 * its own process (`babylon-skybox local`, `babylon-skybox proxy`), load comes from
 * autocannon, wrk (when installed) and curl in processes of their own, and every side of
 * each ratio is measured with the same settings, interleaved so that a change in the
 * machine's load falls on all.
 */
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { startLocalProcess, waitFor, type LocalProcess } from "../helpers/local-service.ts";
import { startProxyProcess } from "../helpers/proxy-process.ts";
import { startScriptProcess } from "../helpers/cli-process.ts";
import { download, downloadCommand } from "./asset-stream.ts";
import { autocannon, type LoadGenerator, type LoadSpec } from "./autocannon-load.ts";
import { pairedLatency } from "./paired-latency.ts";
import { median, ms } from "./percentiles.ts";
import { cpuMicrosOf, peakRssDuring, rssOf } from "./process-usage.ts";
import { wrk } from "./wrk-load.ts";

const CONNECTIONS = 32;
const LOAD_SECONDS = 3;
const PAIRS = 2000;
const DOWNLOADS = 5;
/** A 16K HDRI export of a generation rendered at this scale is a 13107 × 6554 file of 70 to 120 MB (its RLE varies with the picture; at 0.6 some came out at 34 MB, under the 40 MB the issue asks for). */
const IMAGE_SCALE = 0.8;
const RATE_LIMIT = "1000000";
/** The live heap a second proxy holds (heap-ballast.mjs), as a large dev server or user store would: what a garbage collection costs grows with it. */
const BALLAST_MB = 200;
/** Goals: a large file through the proxy at this share of the bare proxy's bytes per second or more; the added latency's p99 at most this. */
const STREAM_GOAL = 0.9;
const P99_GOAL_MS = 2;

const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
const hidden = (name: string, value: string) => (name === "x-api-key" ? "$SKYBOX_API_KEY" : value);

export async function proxyBench(): Promise<string[]> {
  const svc = await startLocalProcess({ speed: 1000, "rate-limit": 100_000_000, "image-scale": IMAGE_SCALE });
  const keys = { apiKey: svc.info.apiKey, apiSecret: svc.info.apiSecret };
  // As users run it: the package's compiled command on plain Node (through tsx its heap is half again as large, and collecting it costs in proportion).
  execFileSync("npm", ["run", "--silent", "build"], { stdio: "ignore" });
  const proxy = await startProxyProcess(keys, { upstream: svc.info.url, "rate-limit": RATE_LIMIT }, { built: true });
  const ballast = { NODE_OPTIONS: `--import=${resolve("test/bench/heap-ballast.mjs")}`, SKYBOX_BENCH_BALLAST_MB: String(BALLAST_MB) };
  const heavy = await startProxyProcess(keys, { upstream: svc.info.url, "rate-limit": RATE_LIMIT }, { built: true, env: ballast });
  const bare = await startScriptProcess<{ url: string }>("test/bench/bare-proxy.mjs", [svc.info.url], {
    ...process.env,
    SKYBOX_API_KEY: keys.apiKey,
  });
  try {
    const { generationId, fileUrl } = await largeExport(svc);
    const status = `/api/v1/imagine/requests/${generationId}`;
    const targets = {
      direct: { url: `${svc.info.url}${status}`, headers: { "x-api-key": svc.info.apiKey } },
      proxy: { url: `${proxy.info.url}/skybox${status}` },
      bare: { url: `${bare.info.url}/skybox${status}` },
    };
    const setup = `babylon-skybox local --speed 1000 --rate-limit 100000000 --image-scale ${IMAGE_SCALE}; npm run build; SKYBOX_API_KEY=… node dist/cli/bin.js proxy --upstream $SERVICE --rate-limit ${RATE_LIMIT}; SKYBOX_API_KEY=… node test/bench/bare-proxy.mjs $SERVICE; the same proxy holding a ${BALLAST_MB} MB live heap: SKYBOX_BENCH_BALLAST_MB=${BALLAST_MB} NODE_OPTIONS=--import=./test/bench/heap-ballast.mjs SKYBOX_API_KEY=… node dist/cli/bin.js proxy …`;
    const lines = [`setup: ${setup}; a complete generation's status (GET ${status}, ${await statusBytes(targets.direct)} bytes of JSON)`];
    const pids = { service: svc.child.pid!, proxy: proxy.child.pid!, bare: bare.child.pid! };
    const file = `/http/${new URL(fileUrl).host}${new URL(fileUrl).pathname}`;
    const downloads = {
      direct: fileUrl,
      proxy: `${proxy.info.url}/skybox/assets${file}`,
      bare: `${bare.info.url}/skybox/assets${file}`,
      heavy: `${heavy.info.url}/skybox/assets${file}`,
    };
    const proxyPids = { proxy: proxy.child.pid!, heavy: heavy.child.pid! };
    lines.push(...(await assetStreaming(downloads, proxyPids, "by processes that have served nothing else yet")));
    for (const generator of [wrk, autocannon]) if (generator) lines.push(...(await throughput(generator, targets, pids)));
    if (!wrk)
      lines.push(
        "  (wrk is not installed: `apt-get install wrk` adds the run from a load generator that leaves the servers more of a small machine's cores)",
      );
    const paired = await pairedLatency(targets.direct, { proxy: targets.proxy, bare: targets.bare }, PAIRS);
    const added = (name: "proxy" | "bare" | "null") => `p50 ${ms(paired[name].p50)}  p99 ${ms(paired[name].p99)}`;
    lines.push(
      `added latency (goal: p99 ≤ ${P99_GOAL_MS} ms through the proxy), ${PAIRS} rounds of one request to each side, one at a time, order rotating, after ${PAIRS} rounds of warm-up (side − direct in the same round): through the proxy ${added("proxy")}; through the bare proxy ${added("bare")}; direct − direct (the machine's own noise) ${added("null")}  (medians: direct ${ms(paired.reference)}, proxy ${ms(paired.proxy.median)}, bare ${ms(paired.bare.median)})`,
    );
    // After the load runs: what was promoted meanwhile makes the proxy's garbage collector work harder while it streams.
    lines.push(...(await assetStreaming(downloads, proxyPids, "by the same processes after the load runs above")));
    return lines;
  } finally {
    await bare.kill("SIGTERM");
    await heavy.stop();
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
  const call = async (path: string, body?: unknown) =>
    (await fetch(`${api}${path}`, body ? { method: "POST", headers, body: JSON.stringify(body) } : { headers })).json();
  const created = await call("/skybox", { prompt: "bench", skybox_style_id: 2 });
  const done = await waitFor(
    async () => {
      const { request } = await call(`/imagine/requests/${created.id}`);
      return request.status === "complete" && request;
    },
    120_000,
    100,
  );
  const ordered = await call("/skybox/export", { skybox_id: done.obfuscated_id, type_id: 4, resolution_id: 7 });
  const exported = await waitFor(
    async () => {
      const e = await call(`/skybox/export/${ordered.id}`);
      if (e.status === "error") throw new Error(`export failed: ${e.error_message}`);
      return e.status === "complete" && e;
    },
    120_000,
    200,
  );
  return { generationId: created.id, fileUrl: exported.file_url };
}

type Side = "direct" | "proxy" | "bare";
type Target = Omit<LoadSpec, "connections" | "seconds">;
/** A drift in the machine's load weighs on every side alike. */
const LOAD_ORDER: readonly Side[] = ["direct", "proxy", "bare", "bare", "proxy", "direct"];
const SIDE_NAMES: Record<Side, string> = { direct: "direct", proxy: "through the proxy", bare: "through the bare proxy" };
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Req/s of each side from one load generator, and the CPU time each server process spent per request (from /proc). */
async function throughput(
  generator: LoadGenerator,
  targets: Record<Side, Target>,
  pids: Record<"service" | "proxy" | "bare", number>,
): Promise<string[]> {
  const spec = (side: Side, seconds = LOAD_SECONDS): LoadSpec => ({ ...targets[side], connections: CONNECTIONS, seconds });
  // Warm-up: every side's code optimised before anything counts.
  for (const side of ["direct", "proxy", "bare"] as const) await generator.run(spec(side, 2));
  const rps: Record<Side, number[]> = { direct: [], proxy: [], bare: [] };
  const cpu: Record<Side, { service: number; proxy: number; requests: number }> = {
    direct: { service: 0, proxy: 0, requests: 0 },
    proxy: { service: 0, proxy: 0, requests: 0 },
    bare: { service: 0, proxy: 0, requests: 0 },
  };
  let failed = 0;
  for (const side of LOAD_ORDER) {
    const front = side === "bare" ? pids.bare : pids.proxy;
    const [s0, p0] = [cpuMicrosOf(pids.service), cpuMicrosOf(front)];
    const r = await generator.run(spec(side));
    rps[side].push(r.rps);
    failed += r.failed;
    cpu[side].service += cpuMicrosOf(pids.service) - s0;
    cpu[side].proxy += cpuMicrosOf(front) - p0;
    cpu[side].requests += r.requests;
  }
  const per = (side: Side, who: "service" | "proxy") => (cpu[side][who] / cpu[side].requests).toFixed(0);
  const d = mean(rps.direct);
  const figure = (side: Side) =>
    `${SIDE_NAMES[side]} ${mean(rps[side]).toFixed(0)} req/s (${rps[side].map((r) => r.toFixed(0)).join(", ")})`;
  return [
    `throughput from ${generator.name}, ${CONNECTIONS} connections, ${LOAD_SECONDS} s per run (${LOAD_ORDER.join(", ")}): ${figure("direct")}, ${figure("proxy")}, ${figure("bare")}; ratio ${(mean(rps.proxy) / d).toFixed(2)} (the bare proxy's ${(mean(rps.bare) / d).toFixed(2)})${failed ? `; ${failed} failed requests` : ""}`,
    `  CPU time per request: the service ${per("direct", "service")} µs called directly, ${per("proxy", "service")} µs behind the proxy; the proxy ${per("proxy", "proxy")} µs, the bare proxy ${per("bare", "proxy")} µs`,
    ...(["direct", "proxy"] as const).map((side) => `  ${generator.command(spec(side), hidden)}`),
  ];
}

type StreamSide = Side | "heavy";
const STREAM_SIDES: readonly StreamSide[] = ["direct", "proxy", "bare", "heavy"];
const STREAM_NAMES: Record<StreamSide, string> = { ...SIDE_NAMES, heavy: `through the proxy holding a ${BALLAST_MB} MB live heap` };

/**
 * Bytes per second of a large file's downloads, each side in turn; the median of each side.
 * Memory: the two proxies' RSS before the downloads, its peak during them, and a second after.
 */
async function assetStreaming(urls: Record<StreamSide, string>, pids: Record<"proxy" | "heavy", number>, when: string): Promise<string[]> {
  for (const side of STREAM_SIDES) await download(urls[side]);
  const before = { proxy: rssOf(pids.proxy), heavy: rssOf(pids.heavy) };
  const speeds: Record<StreamSide, number[]> = { direct: [], proxy: [], bare: [], heavy: [] };
  let bytes = 0;
  const downloads = async () => {
    for (let i = 0; i < DOWNLOADS; i++) {
      for (const side of i % 2 ? [...STREAM_SIDES].reverse() : STREAM_SIDES) {
        const r = await download(urls[side]);
        speeds[side].push(r.bytesPerSecond);
        bytes = r.bytes;
      }
    }
  };
  const { result: heavyPeak, peak: proxyPeak } = await peakRssDuring(
    pids.proxy,
    async () => (await peakRssDuring(pids.heavy, downloads)).peak,
  );
  await new Promise((r) => setTimeout(r, 1000));
  const after = { proxy: rssOf(pids.proxy), heavy: rssOf(pids.heavy) };
  const [d, p, b, h] = STREAM_SIDES.map((side) => median(speeds[side])) as [number, number, number, number];
  const memory = (who: "proxy" | "heavy", peak: number) => `${mb(before[who])} / ${mb(peak)} / ${mb(after[who])}`;
  return [
    `asset streaming ${when}, a 16K HDRI export (${mb(bytes)}), ${DOWNLOADS} downloads each, alternating, medians: ${STREAM_SIDES.map((side, i) => `${STREAM_NAMES[side]} ${mb([d, p, b, h][i]!)}/s`).join(", ")}`,
    `  large-file ratio to the bare proxy (goal ≥ ${STREAM_GOAL.toFixed(2)}): the proxy ${(p / b).toFixed(2)}, the proxy holding a ${BALLAST_MB} MB live heap ${(h / b).toFixed(2)}; against direct: the proxy ${(p / d).toFixed(2)}, the bare proxy ${(b / d).toFixed(2)}`,
    `  proxy memory (RSS) before / peak during / 1 s after the ${DOWNLOADS * STREAM_SIDES.length} downloads: ${memory("proxy", proxyPeak)}; the proxy holding a ${BALLAST_MB} MB live heap ${memory("heavy", heavyPeak)}`,
    `  ${downloadCommand(urls.direct)}`,
    `  ${downloadCommand(urls.proxy)}`,
  ];
}
