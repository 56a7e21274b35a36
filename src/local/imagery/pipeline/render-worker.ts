/**
 * Entry point of an imagery worker thread: runs the jobs the pool posts (see
 * render-jobs.ts) and answers each with its result or error.
 */
import { setPriority } from "node:os";
import { parentPort } from "node:worker_threads";
import { collectGarbage } from "./collect-garbage.ts";
import { forgetTask, type ImageryJob, runJob } from "./render-jobs.ts";
import { threadCpuMs } from "./thread-cpu.ts";

/** What the pool posts: a job to run, a task whose cached state can go, or a call to collect garbage. */
export type WorkerRequest = { id: number; job: ImageryJob } | { forget: string } | { collect: true };
/**
 * A job's result or error; `ms` is the time the job took in the worker and `cpuMs` the CPU
 * time it used (null where unknown), for benchmarks.
 */
export type WorkerReply =
  | { id: number; ok: true; result: unknown; ms: number; cpuMs: number | null }
  | { id: number; ok: false; message: string; stack?: string }
  /** Sent once, when the worker's modules are loaded. */
  | { ready: true }
  /** Sent after each `collect`, once the worker's collection is done. */
  | { collected: true };

const port = parentPort;
if (!port) throw new Error("render-worker.ts must run in a worker thread");

// Rendering yields to the HTTP thread: on Linux the nice value is per thread, so only this
// worker runs at lower priority and status routes stay fast while both cores render.
try {
  setPriority(0, 10);
} catch {
  // Not permitted or not supported here: render at normal priority.
}

port.on("message", (msg: WorkerRequest) => {
  if ("forget" in msg) return forgetTask(msg.forget);
  if ("collect" in msg) {
    collectGarbage();
    return port.postMessage({ collected: true } satisfies WorkerReply);
  }
  const start = performance.now();
  const cpu = threadCpuMs();
  runJob(msg.job).then(
    (result) => {
      const transfer = result instanceof Uint8Array && !(result.buffer instanceof SharedArrayBuffer) ? [result.buffer] : [];
      const cpuMs = cpu === null ? null : threadCpuMs()! - cpu;
      port.postMessage({ id: msg.id, ok: true, result, ms: performance.now() - start, cpuMs } satisfies WorkerReply, transfer);
    },
    (error: unknown) => {
      const e = error instanceof Error ? error : new Error(String(error));
      port.postMessage({ id: msg.id, ok: false, message: e.message, stack: e.stack } satisfies WorkerReply);
    },
  );
});

port.postMessage({ ready: true } satisfies WorkerReply);
