/**
 * The render process: the imagery pool (its worker threads and the coordinating
 * `renderSkybox`) in a process of its own, driven by the render host (render-host.ts) over
 * IPC. Its command line carries `--expose-gc`, so this process and its workers collect
 * a render's shared buffers when it lets go of them (collect-garbage.ts) while the host's
 * V8 flags stay as its user set them. It ends when its IPC channel closes: the host
 * retires it when idle, closes it, or ends itself (even by SIGKILL).
 */
import { resourceUsage } from "node:process";
import type { ExportRequest, RenderRequest } from "../contract.ts";
import { createImageryPool } from "./render-pool.ts";
import { threadCpuMs } from "./thread-cpu.ts";
import { warmUp } from "./warm-up.ts";

/** An operation the host asks for. */
export type HostOperation =
  | { op: "generate"; request: RenderRequest; dir: string }
  | { op: "export"; request: ExportRequest }
  | { op: "ready"; warmUp: boolean }
  | { op: "stats" };

/** What the host sends: an operation (answered by `id`), or to abort a running `generate`. */
export type HostRequest = (HostOperation & { id: number }) | { abort: number; message: string };

/** The answer to an operation, or `hello` once this process listens. */
export type ChildReply =
  { hello: true } | { id: number; ok: true; result: unknown } | { id: number; ok: false; message: string; stack?: string };

/** CPU and memory of the render process, cumulative since it started (for benchmarks). */
export interface RenderProcessStats {
  pid: number;
  /** Worker threads of its pool. */
  workers: number;
  /** Worker time per job kind: jobs, wall ms, CPU ms (null where unknown). */
  byKind: [string, { jobs: number; ms: number; cpuMs: number | null }][];
  /** CPU time of the whole process (every thread), ms. */
  cpuMs: number;
  /** CPU time of the coordinating thread, ms (null where unknown). */
  mainThreadCpuMs: number | null;
  /** Highest resident memory of the process so far, bytes. */
  maxRss: number;
}

if (!process.send) throw new Error("render-host-child.ts must run as a forked process (render-host.ts starts it)");

const pool = createImageryPool();
const running = new Map<number, AbortController>();
/** Aborted by the first generation or export: the warm-up's jobs not started give way to it. */
const warming = new AbortController();

const reply = (message: ChildReply): void => {
  // The channel closes when the host goes: the answer has nobody to reach then. It may close
  // between the check and the write, too: the callback takes that EPIPE, which Node would
  // otherwise raise on `process` as an uncaught error.
  if (process.connected) process.send!(message, undefined, {}, () => {});
};

function answer(id: number, work: Promise<unknown>): void {
  work.then(
    (result) => reply({ id, ok: true, result }),
    (error: unknown) => {
      const e = error instanceof Error ? error : new Error(String(error));
      reply({ id, ok: false, message: e.message, stack: e.stack });
    },
  );
}

function run(msg: HostOperation & { id: number }): Promise<unknown> {
  if (msg.op === "generate" || msg.op === "export") warming.abort(new Error("a render arrived"));
  switch (msg.op) {
    case "generate": {
      const stop = new AbortController();
      running.set(msg.id, stop);
      return pool.generate(msg.request, msg.dir, stop.signal).finally(() => running.delete(msg.id));
    }
    case "export":
      return pool.runExport(msg.request);
    case "ready":
      return pool.ready().then(() => (msg.warmUp ? warmUp(pool, { signal: warming.signal }) : undefined));
    case "stats":
      return Promise.resolve(stats());
  }
}

function stats(): RenderProcessStats {
  const usage = resourceUsage();
  return {
    pid: process.pid,
    workers: pool.size,
    byKind: [...pool.stats.byKind],
    cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000,
    mainThreadCpuMs: threadCpuMs(),
    maxRss: usage.maxRSS * 1024,
  };
}

process.on("message", (msg: HostRequest) => {
  if ("abort" in msg) return running.get(msg.abort)?.abort(new Error(msg.message));
  answer(msg.id, run(msg));
});

// The host is gone or lets this process go: stop the workers and end.
process.once("disconnect", () => {
  for (const stop of running.values()) stop.abort(new Error("the render host closed"));
  void pool.close().finally(() => process.exit(0));
});

reply({ hello: true });
