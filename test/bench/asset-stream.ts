/**
 * A large file downloaded with curl (a process of its own), straight from the service and
 * through the proxy in turn, while the proxy's resident memory is sampled from /proc.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";

export interface DownloadResult {
  bytes: number;
  bytesPerSecond: number;
}

export const downloadCommand = (url: string) => `curl -s -o /dev/null -w '%{size_download} %{speed_download}' ${url}`;

export function download(url: string): Promise<DownloadResult> {
  return new Promise((resolve, reject) => {
    execFile("curl", ["-s", "-f", "-o", "/dev/null", "-w", "%{size_download} %{speed_download}", url], (error, stdout) => {
      if (error) return reject(error);
      const [bytes, speed] = stdout.trim().split(" ").map(Number);
      resolve({ bytes: bytes!, bytesPerSecond: speed! });
    });
  });
}

/** Resident set size of a process, in bytes (Linux). */
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
