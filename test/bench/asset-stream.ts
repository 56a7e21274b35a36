/**
 * A large file downloaded with curl (a process of its own), straight from the service and
 * through the proxy in turn (the proxy's memory is sampled meanwhile, process-usage.ts).
 */
import { execFile } from "node:child_process";

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
