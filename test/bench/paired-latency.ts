/**
 * Added latency as paired differences: request i through the proxy and request i straight
 * to the service are made back to back (which one first alternates), one at a time, each
 * on its own kept-alive connection, and the percentiles are those of the n differences,
 * not differences of percentiles (which can even come out negative).
 */
import { Agent, request } from "node:http";
import { percentile } from "./percentiles.ts";

export interface Target {
  url: string;
  headers?: Record<string, string>;
}

/** Milliseconds for one GET, its body read to the end. */
function timedGet(target: Target, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const req = request(target.url, { agent, headers: target.headers }, (res) => {
      res.on("data", () => {});
      res.on("end", () => (res.statusCode === 200 ? resolve(Number(process.hrtime.bigint() - t0) / 1e6) : reject(new Error(`${target.url}: ${res.statusCode}`))));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

export interface PairedResult {
  p50: number;
  p99: number;
  /** Medians of each side alone, for reference. */
  directP50: number;
  proxyP50: number;
}

export async function pairedLatency(direct: Target, proxy: Target, pairs: number, warmup = Math.ceil(pairs / 10)): Promise<PairedResult> {
  const agents = [new Agent({ keepAlive: true, maxSockets: 1 }), new Agent({ keepAlive: true, maxSockets: 1 })] as const;
  const diffs: number[] = [];
  const d: number[] = [];
  const p: number[] = [];
  try {
    for (let i = 0; i < warmup + pairs; i++) {
      let dt: number, pt: number;
      if (i % 2 === 0) {
        dt = await timedGet(direct, agents[0]);
        pt = await timedGet(proxy, agents[1]);
      } else {
        pt = await timedGet(proxy, agents[1]);
        dt = await timedGet(direct, agents[0]);
      }
      if (i < warmup) continue;
      diffs.push(pt - dt);
      d.push(dt);
      p.push(pt);
    }
  } finally {
    for (const a of agents) a.destroy();
  }
  return { p50: percentile(diffs, 50), p99: percentile(diffs, 99), directP50: percentile(d, 50), proxyP50: percentile(p, 50) };
}
