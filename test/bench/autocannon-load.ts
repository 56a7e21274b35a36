/**
 * Load from autocannon in a process of its own (never the process of a server it measures):
 * `autocannon -c C -d S [-H name=value]... URL`, read back as its JSON report.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";

export interface LoadSpec {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  seconds: number;
}

export interface LoadResult {
  requests: number;
  rps: number;
  /** Latencies in ms (autocannon's whole-millisecond histogram). */
  p50: number;
  p99: number;
  /** Answers that were not 2xx, and connection errors and timeouts. */
  failed: number;
}

const AUTOCANNON = join(process.cwd(), "node_modules", ".bin", "autocannon");

/** A load generator run as a process of its own. */
export interface LoadGenerator {
  name: string;
  /** The command line, with `show` standing in for header values that are secrets. */
  command(spec: LoadSpec, show?: (name: string, value: string) => string): string;
  run(spec: LoadSpec): Promise<LoadResult>;
}

/** The command line, with `show` standing in for header values that are secrets. */
export function loadCommand(spec: LoadSpec, show: (name: string, value: string) => string = (_, v) => v): string {
  const headers = Object.entries(spec.headers ?? {}).map(([k, v]) => `-H ${k}=${show(k, v)}`);
  return ["autocannon", "-c", spec.connections, "-d", spec.seconds, ...headers, spec.url].join(" ");
}

export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const headers = Object.entries(spec.headers ?? {}).flatMap(([k, v]) => ["-H", `${k}=${v}`]);
  const args = ["-j", "-n", "-c", String(spec.connections), "-d", String(spec.seconds), ...headers, spec.url];
  return new Promise((resolve, reject) => {
    execFile(AUTOCANNON, args, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
      if (error) return reject(error);
      const report = JSON.parse(stdout) as {
        duration: number;
        requests: { total: number };
        latency: { p50: number; p99: number };
        non2xx: number;
        errors: number;
        timeouts: number;
      };
      resolve({
        requests: report.requests.total,
        rps: report.requests.total / report.duration,
        p50: report.latency.p50,
        p99: report.latency.p99,
        failed: report.non2xx + report.errors + report.timeouts,
      });
    });
  });
}

export const autocannon: LoadGenerator = { name: "autocannon", command: loadCommand, run: runLoad };
