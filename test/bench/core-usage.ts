/**
 * How busy each core of the machine was between two moments (Linux /proc/stat; other
 * systems report nothing). Machine-wide: on an idle machine it is the bench's own use.
 */
import { readFileSync } from "node:fs";

type Times = { busy: number; total: number }[];

function sample(): Times | null {
  try {
    return readFileSync("/proc/stat", "utf8")
      .split("\n")
      .filter((line) => /^cpu\d+ /.test(line))
      .map((line) => {
        const v = line.trim().split(/\s+/).slice(1).map(Number);
        const idle = v[3]! + (v[4] ?? 0);
        const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
        return { busy: total - idle, total };
      });
  } catch {
    return null;
  }
}

/** Starts measuring; the returned function gives each core's busy fraction since (or null). */
export function coreUsage(): () => number[] | null {
  const start = sample();
  return () => {
    const end = sample();
    if (!start || !end) return null;
    return end.map((e, i) => {
      const total = e.total - start[i]!.total;
      return total > 0 ? (e.busy - start[i]!.busy) / total : 0;
    });
  };
}
