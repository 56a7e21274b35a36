/**
 * Finding the sun of an HDR export off the page's main thread: the export's bytes go to a Web
 * Worker (sun-worker.ts), which decodes them and runs `findSun`, and its finding (a few
 * numbers) comes back, with the decoded pixels when the lighting is made of the same file.
 * Decoding a 2K export and finding its sun takes 40 to 180 ms of CPU, a long task the page
 * would not draw through.
 *
 * Where no worker can start (no `Worker`, a Content-Security-Policy without `worker-src
 * 'self'`, a bundler that did not emit the worker's module), the sun is found on the main
 * thread as before: the bytes decoded in slices between which the page draws, then the
 * detector in one task.
 */
import { findSun, type SunFinding } from "../analysis/detect-sun.ts";
import { decodeHdrInSlices, type HdrPixels } from "../analysis/hdr-pixels.ts";
import { timedStep } from "../scheduling/step-timing.ts";
import { nextTaskSlice, WorkSlices } from "../scheduling/work-slices.ts";
import type { SunJob, SunWorkerReply } from "./sun-worker.ts";

/** What `findSunOffThread` is given. */
export interface SunSearch {
  /** The `.hdr` export. */
  bytes: Uint8Array;
  /**
   * Whether nothing else holds the bytes: their buffer is then handed to the worker (and
   * left empty here); else a copy of them is.
   */
  owned: boolean;
  /** Drops the search: the promise rejects with its reason, and a late answer is ignored. */
  signal?: AbortSignal;
  /**
   * Takes the decoded pixels, before the finding resolves (the worker hands its over; the main
   * thread's way gives those it decoded): the lighting made of the same file then decodes nothing.
   */
  onPixels?: (pixels: HdrPixels) => void;
}

/**
 * Finds the sun of an `.hdr` export in the page's sun worker, or on the main thread where no
 * worker starts.
 * @returns the finding, the same as `findSun(decodeHdr(bytes))`
 */
export async function findSunOffThread(search: SunSearch): Promise<SunFinding> {
  search.signal?.throwIfAborted();
  const worker = SunWorker.forPage();
  const answer = worker ? await worker.find(search) : UNAVAILABLE;
  if (answer !== UNAVAILABLE) {
    if (answer.pixels) search.onPixels?.(answer.pixels);
    return answer.finding;
  }
  return findOnMainThread(search);
}

/** The main thread's way: decoded in slices, the detector in one task. */
async function findOnMainThread({ bytes, signal, onPixels }: SunSearch): Promise<SunFinding> {
  const pixels = await decodeHdrInSlices(bytes, new WorkSlices(nextTaskSlice, signal));
  onPixels?.(pixels);
  return timedStep("sun-finding", () => findSun(pixels));
}

/** A worker's finding, with the pixels it decoded when the job kept them. */
interface WorkerAnswer {
  finding: SunFinding;
  pixels: HdrPixels | null;
}

/** A worker's answer when it could not start: the job goes to the main thread, its bytes untouched. */
const UNAVAILABLE = Symbol("no sun worker");

/** A job the worker was given or is about to be. */
interface PendingJob {
  /** The bytes until they are sent. */
  search: SunSearch | null;
  resolve(answer: WorkerAnswer | typeof UNAVAILABLE): void;
  reject(error: unknown): void;
}

/**
 * The page's sun worker. Kept per page, not per engine or scene: it is a thread that holds
 * nothing of any scene, and two scenes finding suns at once share it. It is made on a first
 * job and ended once no job waits (the last answered, dropped or aborted), so nothing outlives
 * the applies that use it and there is nothing to dispose. Once a worker failed to start, the
 * page's policy or build will not let the next one start either: `failed` keeps the main
 * thread's way for the page's life.
 */
let page: SunWorker | null = null;
let failed = false;

class SunWorker {
  private readonly _worker: Worker;
  private readonly _jobs = new Map<number, PendingJob>();
  private _nextId = 0;
  private _ready = false;

  /** The page's worker, made when none runs; null where workers cannot start. */
  static forPage(): SunWorker | null {
    if (page) return page;
    if (failed || typeof Worker === "undefined") return null;
    try {
      page = new SunWorker();
    } catch {
      // A Content-Security-Policy refusing the worker's origin throws here.
      failed = true;
    }
    return page;
  }

  private constructor() {
    // The standard form bundlers recognise (Vite, webpack 5, Rollup and esbuild plugins): the module is emitted beside this one.
    this._worker = new Worker(new URL("./sun-worker.js", import.meta.url), { type: "module", name: "babylon-skybox sun" });
    this._worker.addEventListener("message", (event: MessageEvent<SunWorkerReply>) => this._reply(event.data));
    this._worker.addEventListener("error", (event) => this._fail(event));
  }

  /**
   * Sends a job once the worker is ready.
   * @returns its finding, UNAVAILABLE when the worker could not start; rejects with the signal's reason once aborted
   */
  find(search: SunSearch): Promise<WorkerAnswer | typeof UNAVAILABLE> {
    const id = this._nextId++;
    return new Promise((resolve, reject) => {
      const { signal } = search;
      const drop = () => {
        this._jobs.delete(id);
        reject(signal!.reason);
        this._endWhenIdle();
      };
      signal?.addEventListener("abort", drop, { once: true });
      const settle = () => signal?.removeEventListener("abort", drop);
      this._jobs.set(id, {
        search,
        resolve: (answer) => (settle(), resolve(answer)),
        reject: (error) => (settle(), reject(error)),
      });
      if (this._ready) this._send(id);
    });
  }

  private _send(id: number): void {
    const job = this._jobs.get(id)!;
    const { bytes, owned, onPixels } = job.search!;
    job.search = null;
    const sent = owned ? bytes : timedStep("sun-bytes-copy", () => bytes.slice());
    this._worker.postMessage({ id, bytes: sent, keepPixels: onPixels !== undefined } satisfies SunJob, [sent.buffer]);
  }

  private _reply(reply: SunWorkerReply): void {
    if ("ready" in reply) {
      this._ready = true;
      for (const id of this._jobs.keys()) this._send(id);
      return;
    }
    // A job dropped (aborted) has no entry: its late answer goes nowhere.
    const job = this._jobs.get(reply.id);
    if (!job) return;
    this._jobs.delete(reply.id);
    if ("error" in reply) job.reject(new Error(reply.error));
    else job.resolve({ finding: reply.finding, pixels: reply.pixels });
    this._endWhenIdle();
  }

  /**
   * The worker failed: before it was ready, it could not start (its jobs still hold their
   * bytes, and go to the main thread); after, it stopped, and the jobs it held are lost.
   */
  private _fail(event: ErrorEvent): void {
    event.preventDefault();
    if (!this._ready) failed = true;
    const stopped = new Error(`The sun finder's worker stopped: ${event.message || "it failed"}`);
    for (const job of this._jobs.values()) this._ready ? job.reject(stopped) : job.resolve(UNAVAILABLE);
    this._jobs.clear();
    this._end();
  }

  private _endWhenIdle(): void {
    if (this._jobs.size === 0) this._end();
  }

  private _end(): void {
    this._worker.terminate();
    if (page === this) page = null;
  }
}
