/**
 * CPU time of the calling thread, for the pool's per-job statistics: on Linux from
 * /proc/thread-self/schedstat (nanoseconds on the CPU), elsewhere null (the statistics
 * then hold wall time only). Node 20 has no per-thread CPU clock of its own.
 */
import { readFileSync } from "node:fs";

let available = process.platform === "linux";

/** Milliseconds this thread has run on a CPU, or null where that cannot be read. */
export function threadCpuMs(): number | null {
  if (!available) return null;
  try {
    const text = readFileSync("/proc/thread-self/schedstat", "latin1");
    return Number(text.slice(0, text.indexOf(" "))) / 1e6;
  } catch {
    available = false;
    return null;
  }
}
