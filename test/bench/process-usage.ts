/** What a server process uses, read from /proc (Linux): resident memory and CPU time. */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

/** Resident set size of a process, in bytes. */
export function rssOf(pid: number): number {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Number(kb) * 1024;
}

/** The highest RSS of `pid` while `work` runs, sampled every `everyMs`. */
export async function peakRssDuring<T>(pid: number, work: () => Promise<T>, everyMs = 5): Promise<{ result: T; peak: number }> {
  let peak = rssOf(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssOf(pid))), everyMs);
  try {
    const result = await work();
    return { result, peak: Math.max(peak, rssOf(pid)) };
  } finally {
    clearInterval(timer);
  }
}

let ticksPerSecond: number | undefined;

/** CPU time (user + system) a process has used so far, in µs. */
export function cpuMicrosOf(pid: number): number {
  ticksPerSecond ??= Number(execFileSync("getconf", ["CLK_TCK"]).toString()) || 100;
  // Fields after the command name: utime and stime are the 12th and 13th.
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) / ticksPerSecond) * 1e6;
}
