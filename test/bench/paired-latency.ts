/**
 * Added latency as paired differences. Each round makes one request to the reference (the
 * service called directly) and one through each other target, one at a time, each target on
 * its own kept-alive connection, in an order that rotates from round to round; a target's
 * figures are the percentiles of its n differences from the reference in the same round,
 * not differences of percentiles (which can even come out negative). A second request to
 * the reference in every round gives the null pair: the differences the machine and the
 * client make on their own, which no proxy can go under.
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
      res.on("end", () =>
        res.statusCode === 200
          ? resolve(Number(process.hrtime.bigint() - t0) / 1e6)
          : reject(new Error(`${target.url}: ${res.statusCode}`)),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

export interface PairedFigures {
  /** Percentiles of (target − reference) per round, ms. */
  p50: number;
  p99: number;
  /** The target's own median, ms. */
  median: number;
}

/** `null` is the null pair (the reference against itself); the reference's own median is `reference`. */
export type PairedResult<Name extends string> = Record<Name | "null", PairedFigures> & { reference: number };

export async function pairedLatency<Name extends string>(
  reference: Target,
  targets: Record<Name, Target>,
  rounds: number,
  warmup = rounds,
): Promise<PairedResult<Name>> {
  const names = [...(Object.keys(targets) as Name[]), "null" as const];
  const all: Record<string, Target> = { ...targets, null: reference, reference };
  const agents = Object.fromEntries(Object.keys(all).map((k) => [k, new Agent({ keepAlive: true, maxSockets: 1 })]));
  const order = ["reference", ...names];
  const times: Record<string, number[]> = Object.fromEntries(order.map((k) => [k, []]));
  try {
    for (let i = 0; i < warmup + rounds; i++) {
      const round: Record<string, number> = {};
      for (let j = 0; j < order.length; j++) {
        const name = order[(i + j) % order.length]!;
        round[name] = await timedGet(all[name]!, agents[name]!);
      }
      if (i >= warmup) for (const name of order) times[name]!.push(round[name]!);
    }
  } finally {
    for (const agent of Object.values(agents)) agent.destroy();
  }
  const ref = times.reference!;
  const figures = (name: string): PairedFigures => {
    const diffs = times[name]!.map((t, k) => t - ref[k]!);
    return { p50: percentile(diffs, 50), p99: percentile(diffs, 99), median: percentile(times[name]!, 50) };
  };
  return {
    ...(Object.fromEntries(names.map((n) => [n, figures(n)])) as Record<Name | "null", PairedFigures>),
    reference: percentile(ref, 50),
  };
}
