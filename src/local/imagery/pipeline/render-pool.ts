/**
 * A pool of worker threads (one per available core) that runs imagery jobs: the row bands
 * and column marches of generations, RGBE encoding, and exports. The calling thread (the
 * HTTP server's) only coordinates. Workers start on first use or on `ready()` (the service
 * warms them when it starts, so the first generation does not wait for them), are unref'd
 * while idle (an idle pool never keeps a process alive) and are replaced if one dies.
 *
 * The hundreds of MB of a render's shared buffers are freed only once every thread that
 * saw them has collected them, and a thread whose own garbage is small does not collect
 * for a long time: when a render lets go of buffers, and when it ends, every worker
 * collects and then this thread (`collect`, collect-garbage.ts), where the process allows
 * it: the service runs the pool in a render process started so (render-host.ts).
 *
 * Workers start from render-entry.mjs (as the render process does), which registers tsx's loader when the pool
 * runs from TypeScript sources (under tsx, in a vitest fork, anywhere: Node 20 ignores
 * `--import` in a Worker's execArgv, so inheriting tsx's flags is not enough) and then
 * imports render-worker.ts (or .js once compiled).
 */
import { availableParallelism } from "node:os";
import { extname } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import "sharp"; // loaded by the main thread before any worker uses it (sharp's requirement)
import type { ExportRequest, ExportResult, RenderRequest, RenderResult } from "../contract.ts";
import type { Imagery } from "../imagery.ts";
import { collectEverywhere } from "./collect-garbage.ts";
import type { ImageryJob, ImageryJobResult } from "./render-jobs.ts";
import { type JobRunner, renderSkybox } from "./render-pipeline.ts";
import type { WorkerReply, WorkerRequest } from "./render-worker.ts";

export interface ImageryPool extends Imagery, JobRunner {
  /** Number of worker threads. */
  readonly size: number;
  /** Renders a generation into `dir` (see generateSkybox); `signal` stops it (see renderSkybox). */
  generate(req: RenderRequest, dir: string, signal?: AbortSignal): Promise<RenderResult>;
  /** Runs the export helper's `exportSkybox` in a worker. */
  runExport(req: ExportRequest): Promise<ExportResult>;
  /** Runs one job on a worker; one still queued when `signal` aborts is dropped. */
  run(job: ImageryJob, signal?: AbortSignal): Promise<ImageryJobResult>;
  /** Starts every worker not started yet; resolves once all have loaded their modules. */
  ready(): Promise<void>;
  /** Every worker collects its garbage; resolves once all have (one busy with an export is not waited for). */
  collect(): Promise<void>;
  /** Stops the workers; pending and later jobs fail. */
  close(): Promise<void>;
  /** Time spent in workers per job kind (for benchmarks). */
  readonly stats: JobStats;
}

/** Accumulated worker time per job kind: wall time in the worker, and CPU time where known. */
export class JobStats {
  readonly byKind = new Map<string, { jobs: number; ms: number; cpuMs: number | null }>();

  record(kind: string, ms: number, cpuMs: number | null = null): void {
    const s = this.byKind.get(kind) ?? { jobs: 0, ms: 0, cpuMs: cpuMs === null ? null : 0 };
    s.jobs++;
    s.ms += ms;
    if (s.cpuMs !== null && cpuMs !== null) s.cpuMs += cpuMs;
    else s.cpuMs = null;
    this.byKind.set(kind, s);
  }

  reset(): void {
    this.byKind.clear();
  }
}

interface Pending {
  job: ImageryJob;
  resolve(result: ImageryJobResult): void;
  reject(error: Error): void;
  /** Stops listening to the job's signal once it leaves the queue. */
  detach?(): void;
}

interface Slot {
  worker: Worker;
  busy: Pending | null;
  id: number;
  /** Settles once the worker has loaded its modules (or died). */
  ready: Promise<void>;
  /** Callers waiting for the worker's collections, in the order asked (all called if it dies). */
  collected: (() => void)[];
  /** Set once the pool closes: the worker keeps the process alive until it has exited. */
  closing?: boolean;
}

export function createImageryPool(options: { size?: number } = {}): ImageryPool {
  return new WorkerPool(Math.max(1, options.size ?? availableParallelism()));
}

class WorkerPool implements ImageryPool {
  private readonly _slots: (Slot | null)[];
  private readonly _queue: Pending[] = [];
  private readonly _bySignal = new WeakMap<AbortSignal, Set<Pending>>();
  private _nextId = 1;
  private _closed = false;
  readonly stats = new JobStats();

  constructor(readonly size: number) {
    this._slots = new Array<Slot | null>(size).fill(null);
  }

  generate(req: RenderRequest, dir: string, signal?: AbortSignal): Promise<RenderResult> {
    // Every thread lets go of the render's buffers now, not after the next renders have
    // piled theirs on top (the result does not wait for it).
    return renderSkybox(this, req, dir, signal).finally(() => void collectEverywhere(this));
  }

  runExport(req: ExportRequest): Promise<ExportResult> {
    return this.run({ kind: "export", request: req }) as Promise<ExportResult>;
  }

  run(job: ImageryJob, signal?: AbortSignal): Promise<ImageryJobResult> {
    if (this._closed) return Promise.reject(new Error("imagery pool is closed"));
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const pending: Pending = { job, resolve, reject };
      if (signal) {
        const waiting = this._waitingFor(signal);
        waiting.add(pending);
        pending.detach = () => waiting.delete(pending);
      }
      this._queue.push(pending);
      this._dispatch();
    });
  }

  /**
   * The queued jobs of one signal (a render's), with one listener for all of them: when it
   * aborts they are dropped. A job a worker already runs finishes (its band is small).
   */
  private _waitingFor(signal: AbortSignal): Set<Pending> {
    const waiting = this._bySignal.get(signal);
    if (waiting) return waiting;
    const jobs = new Set<Pending>();
    this._bySignal.set(signal, jobs);
    signal.addEventListener(
      "abort",
      () => {
        const error = signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason));
        for (const pending of jobs) {
          this._queue.splice(this._queue.indexOf(pending), 1);
          pending.reject(error);
        }
        jobs.clear();
      },
      { once: true },
    );
    return jobs;
  }

  async ready(): Promise<void> {
    if (this._closed) return;
    await Promise.all(this._slots.map((slot, i) => (slot ?? this._start(i)).ready));
  }

  release(taskId: string): void {
    for (const slot of this._slots) slot?.worker.postMessage({ forget: taskId } satisfies WorkerRequest);
  }

  collect(): Promise<void> {
    const live = this._slots.filter((slot): slot is Slot => slot !== null);
    return Promise.all(
      live.map(
        (slot) =>
          new Promise<void>((resolve) => {
            slot.collected.push(resolve);
            keepsProcess(slot);
            slot.worker.postMessage({ collect: true } satisfies WorkerRequest);
            // A worker busy with an export (seconds) collects once it gets to it: no render waits for that.
            if (slot.busy?.job.kind === "export") resolve();
          }),
      ),
    ).then(() => {});
  }

  async close(): Promise<void> {
    this._closed = true;
    for (const p of this._queue.splice(0)) p.reject(new Error("imagery pool is closed"));
    await Promise.all(
      this._slots.map(async (slot, i) => {
        this._slots[i] = null;
        if (!slot) return;
        slot.busy?.reject(new Error("imagery pool is closed"));
        // An idle worker is unref'd: terminating it, the process would have nothing left to wait on and end before
        // close() settles, so the code after `await close()` would never run.
        slot.closing = true;
        keepsProcess(slot);
        await slot.worker.terminate();
      }),
    );
  }

  private _dispatch(): void {
    for (let i = 0; i < this._slots.length && this._queue.length > 0; i++) {
      const slot = this._slots[i] ?? this._start(i);
      if (slot.busy) continue;
      const pending = this._queue.shift()!;
      pending.detach?.();
      slot.busy = pending;
      slot.id = this._nextId++;
      keepsProcess(slot);
      slot.worker.postMessage({ id: slot.id, job: pending.job } satisfies WorkerRequest);
    }
  }

  private _start(index: number): Slot {
    const worker = new Worker(ENTRY_URL, { workerData: { module: WORKER_URL.href, tsx: extname(WORKER_URL.pathname) === ".ts" } });
    let loaded = () => {};
    const slot: Slot = { worker, busy: null, id: 0, ready: new Promise((resolve) => (loaded = resolve)), collected: [] };
    worker.unref();
    worker.on("message", (reply: WorkerReply) => {
      if ("ready" in reply) return loaded();
      if ("collected" in reply) {
        slot.collected.shift()?.();
        return keepsProcess(slot);
      }
      const pending = slot.busy;
      if (!pending || reply.id !== slot.id) return;
      slot.busy = null;
      keepsProcess(slot);
      if (reply.ok) {
        this.stats.record(pending.job.kind, reply.ms, reply.cpuMs);
        pending.resolve(reply.result as ImageryJobResult);
      } else {
        const error = new Error(reply.message);
        if (reply.stack) error.stack = reply.stack;
        pending.reject(error);
      }
      this._dispatch();
    });
    const fail = (error: Error): void => {
      loaded();
      for (const done of slot.collected.splice(0)) done();
      if (this._slots[index] !== slot) return;
      this._slots[index] = null;
      slot.busy?.reject(error);
      slot.busy = null;
      if (!this._closed) this._dispatch();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`imagery worker exited with code ${code}`)));
    this._slots[index] = slot;
    return slot;
  }
}

/** A worker keeps the process alive while it owes an answer (a job's or a collection's) or is being stopped, never when idle. */
function keepsProcess(slot: Slot): void {
  if (slot.busy || slot.collected.length > 0 || slot.closing) slot.worker.ref();
  else slot.worker.unref();
}

const WORKER_URL = new URL(`./render-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url);
const ENTRY_URL = new URL("./render-entry.mjs", import.meta.url);
