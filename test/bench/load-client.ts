/**
 * A load generator in a process of its own, so it does not share the event loop of the
 * server it measures: `tsx test/bench/load-client.ts '<json>'` with
 * `{ url, headers, seconds, concurrency }` prints one JSON line
 * `{ requests, rps, p50, p99, errors }` (latencies in ms, non-2xx answers as errors).
 */
import { percentile } from "./percentiles.ts";

interface LoadSpec {
  url: string;
  headers: Record<string, string>;
  seconds: number;
  concurrency: number;
}

const spec = JSON.parse(process.argv[2] ?? "{}") as LoadSpec;
const latencies: number[] = [];
let errors = 0;
const until = performance.now() + spec.seconds * 1000;
await Promise.all(
  Array.from({ length: spec.concurrency }, async () => {
    while (performance.now() < until) {
      const t0 = performance.now();
      const res = await fetch(spec.url, { headers: spec.headers });
      await res.arrayBuffer();
      if (!res.ok) errors++;
      latencies.push(performance.now() - t0);
    }
  }),
);
process.stdout.write(
  `${JSON.stringify({ requests: latencies.length, rps: latencies.length / spec.seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors })}\n`,
);
