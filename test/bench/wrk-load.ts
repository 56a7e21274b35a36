/**
 * Load from wrk (Debian's `wrk`, written in C), when it is installed: about 6 µs of CPU per
 * request here against autocannon's 14 (measured with /usr/bin/time on a bare server). The
 * two give different ratios on a small machine, so the bench prints both.
 * `wrk -t1 -cC -dS --latency [-H 'name: value']... URL`, read from its report.
 */
import { execFile, spawnSync } from "node:child_process";
import type { LoadGenerator, LoadResult, LoadSpec } from "./autocannon-load.ts";

const installed = () => !spawnSync("wrk", ["-v"]).error;

function args(spec: LoadSpec, show: (name: string, value: string) => string = (_, v) => v): string[] {
  const headers = Object.entries(spec.headers ?? {}).flatMap(([k, v]) => ["-H", `${k}: ${show(k, v)}`]);
  return ["-t1", `-c${spec.connections}`, `-d${spec.seconds}`, "--latency", ...headers, spec.url];
}

/** wrk prints latencies as 1.82ms, 950.00us or 1.02s. */
function millis(text: string): number {
  const m = /([\d.]+)(us|ms|s)/.exec(text);
  if (!m) return NaN;
  return Number(m[1]) * (m[2] === "us" ? 1e-3 : m[2] === "s" ? 1e3 : 1);
}

function parse(report: string): LoadResult {
  const number = (re: RegExp) => Number(re.exec(report)?.[1] ?? 0);
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(report)?.slice(1).map(Number) ?? [];
  return {
    requests: number(/(\d+) requests in/),
    rps: number(/Requests\/sec:\s+([\d.]+)/),
    p50: millis(/50%\s+(\S+)/.exec(report)?.[1] ?? ""),
    p99: millis(/99%\s+(\S+)/.exec(report)?.[1] ?? ""),
    failed: number(/Non-2xx or 3xx responses: (\d+)/) + errors.reduce((a, b) => a + b, 0),
  };
}

export const wrk: LoadGenerator | null = installed()
  ? {
      name: "wrk",
      command: (spec, show) => ["wrk", ...args(spec, show).map((a) => (a.includes(" ") ? `'${a}'` : a))].join(" "),
      run: (spec) =>
        new Promise((resolve, reject) => {
          execFile("wrk", args(spec), (error, stdout) => (error ? reject(error) : resolve(parse(stdout))));
        }),
    }
  : null;
