/**
 * The render host: the service's `Imagery`, rendering in a child process (render-host-child.ts)
 * that holds the imagery pool, its worker threads and every render's shared buffers. A
 * render's hundreds of MB are given back by forced collections, which need `--expose-gc`:
 * that flag belongs on the render process's own command line, never in the host (a user's
 * Vite, `npm run dev`, the CLI), whose V8 flags stay its own.
 *
 * The process starts on first need (or `ready()`), and ends once it has been idle for
 * `idleMs`: everything it held goes back to the system, and the next render starts a new
 * one. It never keeps the host alive while idle (its handle and IPC channel are unref'd),
 * and it ends when its IPC channel closes, so it never outlives the host. If it dies
 * (killed, out of memory), the operations it ran fail with a sentence and the next one
 * starts a new process.
 */
import { type ChildProcess, fork } from "node:child_process";
import { extname } from "node:path";
import { fileURLToPath } from "node:url";
import type { ExportRequest, ExportResult, RenderRequest, RenderResult } from "../contract.ts";
import type { Imagery } from "../imagery.ts";
import type { ChildReply, HostOperation, HostRequest, RenderProcessStats } from "./render-host-child.ts";

export interface RenderHostOptions {
  /**
   * How long the render process stays after its last operation before it ends, ms.
   * @default 10000
   */
  idleMs?: number;
}

/** A request the host sent, waiting for its answer. */
interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

/** One render process and what it owes. */
interface RenderProcess {
  child: ChildProcess;
  /** Settles once the process listens (rejects if it dies first). */
  hello: Promise<void>;
  /** Whether it has said hello: a process starting is always waited for. */
  listening: boolean;
  pending: Map<number, Pending>;
  /** Settles once the process has exited. */
  exited: Promise<void>;
}

const DEFAULT_IDLE_MS = 10_000;
/** How long a closing render process may take to stop its workers before it is killed. */
const CLOSE_GRACE_MS = 5_000;

export class RenderHost implements Imagery {
  private readonly _idleMs: number;
  private _process: RenderProcess | null = null;
  private _nextId = 1;
  private _idleTimer: NodeJS.Timeout | null = null;
  private _closed = false;

  constructor(options: RenderHostOptions = {}) {
    const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
    if (!Number.isFinite(idleMs) || idleMs < 0) throw new RangeError(`idleMs: must be a finite number of ms, 0 or more (is ${idleMs})`);
    this._idleMs = idleMs;
  }

  /** Process id of the running render process, null while none runs. */
  get pid(): number | null {
    return this._process?.child.pid ?? null;
  }

  /** Renders a generation into `dir` in the render process; `signal` stops it (see Imagery.generate). */
  async generate(request: RenderRequest, dir: string, signal?: AbortSignal): Promise<RenderResult> {
    signal?.throwIfAborted();
    const t0 = performance.now();
    const proc = await this._listening();
    // Cancelled while the render process started: it never gets the render.
    signal?.throwIfAborted();
    const startMs = performance.now() - t0;
    const result = (await this._call(proc, { op: "generate", request, dir }, signal)) as RenderResult;
    // The render's own wait for its workers, plus the start of a new render process.
    if (result.timings) result.timings.workerStart += startMs;
    return result;
  }

  async runExport(request: ExportRequest): Promise<ExportResult> {
    return (await this._call(await this._listening(), { op: "export", request })) as ExportResult;
  }

  /**
   * Starts the render process if none runs and resolves once its workers have loaded;
   * with `warmUp`, once they have also rendered the warm-up scene (warm-up.ts).
   */
  async ready(options: { warmUp?: boolean } = {}): Promise<void> {
    await this._call(await this._listening(), { op: "ready", warmUp: options.warmUp ?? false });
  }

  /** The render process's CPU, memory and worker time so far (for benchmarks); starts one if none runs. */
  async stats(): Promise<RenderProcessStats> {
    return (await this._call(await this._listening(), { op: "stats" })) as RenderProcessStats;
  }

  /** Ends the render process (its running operations fail); later operations fail. */
  async close(): Promise<void> {
    this._closed = true;
    const proc = this._process;
    this._process = null;
    this._clearIdle();
    if (proc) await this._retire(proc, new Error("imagery pool is closed"));
  }

  /** The render process (started if none runs), once it listens; no longer idle. */
  private async _listening(): Promise<RenderProcess> {
    if (this._closed) throw new Error("imagery pool is closed");
    this._clearIdle();
    const proc = (this._process ??= this._start());
    await proc.hello;
    return proc;
  }

  private _start(): RenderProcess {
    const child = fork(ENTRY_PATH, [CHILD_URL.href, extname(CHILD_URL.pathname) === ".ts" ? "tsx" : "js"], {
      // The render process's flags are its own: not the host's (loaders, inspector), and gc exposed.
      execArgv: ["--expose-gc"],
      serialization: "advanced",
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    const pending = new Map<number, Pending>();
    let hello = (): void => {};
    let died = (_: Error): void => {};
    const proc: RenderProcess = {
      child,
      pending,
      listening: false,
      hello: new Promise<void>((resolve, reject) => ((hello = resolve), (died = reject))),
      exited: new Promise<void>((resolve) => child.once("exit", () => resolve())),
    };
    // A start that fails is reported through the operations that wait on it.
    proc.hello.catch(() => {});
    child.on("message", (reply: ChildReply) => {
      if ("hello" in reply) {
        proc.listening = true;
        keepsHost(proc);
        return hello();
      }
      const waiting = pending.get(reply.id);
      if (!waiting) return;
      pending.delete(reply.id);
      if (reply.ok) waiting.resolve(reply.result);
      else {
        const error = new Error(reply.message);
        if (reply.stack) error.stack = reply.stack;
        waiting.reject(error);
      }
      this._settled(proc);
    });
    const fail = (error: Error): void => {
      if (this._process === proc) this._process = null;
      died(error);
      for (const waiting of pending.values()) waiting.reject(error);
      pending.clear();
    };
    child.once("error", (error) => fail(new Error(`the render process could not run: ${error.message}`)));
    child.once("exit", (code, signal) =>
      fail(new Error(`the render process ended (${signal ?? `exit code ${code}`}) before it finished; the next render starts a new one`)),
    );
    keepsHost(proc);
    return proc;
  }

  /** Sends `request` and resolves with its answer; aborting `signal` asks the process to stop it. */
  private _call(proc: RenderProcess, request: HostOperation, signal?: AbortSignal): Promise<unknown> {
    const id = this._nextId++;
    const answer = new Promise<unknown>((resolve, reject) => {
      proc.pending.set(id, { resolve, reject });
      keepsHost(proc);
      proc.child.send({ ...request, id } satisfies HostRequest, (error) => {
        if (error && proc.pending.delete(id)) reject(new Error(`the render process could not be reached: ${error.message}`));
      });
    });
    if (!signal) return answer;
    const abort = () => {
      const message = signal.reason instanceof Error ? signal.reason.message : String(signal.reason);
      if (proc.child.connected) proc.child.send({ abort: id, message } satisfies HostRequest);
    };
    signal.addEventListener("abort", abort, { once: true });
    // Stopped by its signal: the caller gets the signal's reason, once every write has settled.
    return answer.then(
      (result) => {
        signal.removeEventListener("abort", abort);
        return result;
      },
      (error: Error) => {
        signal.removeEventListener("abort", abort);
        throw signal.aborted ? signal.reason : error;
      },
    );
  }

  /** An operation has settled: the process may stop keeping the host alive, and ends after idleMs without work. */
  private _settled(proc: RenderProcess): void {
    keepsHost(proc);
    if (proc.pending.size > 0 || this._process !== proc) return;
    this._clearIdle();
    this._idleTimer = setTimeout(() => {
      this._idleTimer = null;
      if (this._process !== proc || proc.pending.size > 0) return;
      this._process = null;
      void this._retire(proc, new Error("the render process was idle"));
    }, this._idleMs);
    this._idleTimer.unref();
  }

  private _clearIdle(): void {
    if (this._idleTimer) clearTimeout(this._idleTimer);
    this._idleTimer = null;
  }

  /**
   * Closes the process's IPC channel, on which it stops its workers and exits; killed if it
   * has not within CLOSE_GRACE_MS. Held by the host meanwhile, so `await close()` returns.
   */
  private async _retire(proc: RenderProcess, reason: Error): Promise<void> {
    for (const waiting of proc.pending.values()) waiting.reject(reason);
    proc.pending.clear();
    const { child } = proc;
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.ref();
    if (child.connected) child.disconnect();
    const kill = setTimeout(() => child.kill("SIGKILL"), CLOSE_GRACE_MS);
    await proc.exited;
    clearTimeout(kill);
  }
}

/** The process holds the host's event loop while it starts or owes an answer, never when idle. */
function keepsHost(proc: RenderProcess): void {
  const { child } = proc;
  if (proc.pending.size > 0 || !proc.listening) {
    child.ref();
    child.channel?.ref();
  } else {
    child.unref();
    child.channel?.unref();
  }
}

const CHILD_URL = new URL(`./render-host-child${extname(fileURLToPath(import.meta.url))}`, import.meta.url);
const ENTRY_PATH = fileURLToPath(new URL("./render-entry.mjs", import.meta.url));
