/** What a server process uses, read from /proc (Linux): resident memory and CPU time. */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

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

/** Child process ids of `pid` (every thread's children). */
function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").split(" ").filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/** Resident set size of a process and all its descendants (threads are in their process's), in bytes. */
export function treeRss(pid: number): number {
  let total: number;
  try {
    total = rssOf(pid);
  } catch {
    return 0;
  }
  for (const child of childrenOf(pid)) total += treeRss(child);
  return total;
}
