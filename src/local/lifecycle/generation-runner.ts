import { mkdirSync, rmSync } from "node:fs";
import { generationDir } from "../records/files.ts";
import type { Accounts } from "../store/accounts.ts";
import { syncFolderFiles } from "../store/durable-files.ts";
import type { GenerationEntity } from "../store/entities.ts";
import { offsetTimestamp } from "../store/record-store.ts";
import { JobQueue } from "./job-queue.ts";
import { renderRequestOf } from "./render-request.ts";
import { endFailedJob, isActive, type RunnerDeps } from "./runner-deps.ts";
import { generationTimingsLine } from "./generation-timings.ts";
import { sleep } from "./timing.ts";

export interface GenerationRunnerDeps extends RunnerDeps {
  accounts: Accounts;
}

/**
 * Moves generations through pending → dispatched → processing → complete (or error),
 * sending an event at each step. Cancelled ones end in abort and are refunded.
 */
export class GenerationRunner {
  readonly queue: JobQueue<number>;
  /** Submission time in ms: `createdAt` has whole seconds only, too coarse for the pending delay. */
  private readonly _submittedAt = new Map<number, number>();
  /** Renders under way, by generation id: a cancel stops one, and its folder goes when it has settled. */
  private readonly _rendering = new Map<number, AbortController>();

  constructor(private readonly _d: GenerationRunnerDeps) {
    this.queue = new JobQueue({
      concurrency: _d.concurrency,
      run: (id) => this.run(id),
      onPositions: (moved) => this.positionsMoved(moved),
      onFailure: (id, error) =>
        endFailedJob(_d, `generation ${id}`, error, (sentence) => {
          const g = _d.store.generations.get(id);
          if (g && isActive(g)) this.finish(g, "error", sentence);
        }),
    });
  }

  /** Stores a new generation and queues it; its creation event goes out at once. */
  submit(g: GenerationEntity): void {
    this._d.store.generations.set(g.id, g);
    this._submittedAt.set(g.id, Date.now());
    this._d.store.changed(g);
    this._d.events.generation(g);
    this.queue.enqueue(g.id);
  }

  /** Queues generations a previous run left unfinished; they go on from where they were. */
  resume(): void {
    const unfinished = [...this._d.store.generations.values()].filter(isActive).sort((a, b) => a.id - b.id);
    for (const g of unfinished) this.queue.enqueue(g.id);
    if (unfinished.length) this._d.log(`resuming ${unfinished.length} unfinished generation(s)`);
  }

  /** Cancels an unfinished generation: abort, refunded. False when it had already finished. */
  cancel(g: GenerationEntity): boolean {
    if (!isActive(g)) return false;
    this.queue.remove(g.id);
    this.finish(g, "abort", null);
    return true;
  }

  private async run(id: number): Promise<void> {
    const g = this._d.store.generations.get(id);
    if (!g || !isActive(g)) return;
    const submitted = this._submittedAt.get(id) ?? Date.parse(g.createdAt);
    this._submittedAt.delete(id);
    const pendingLeft = submitted + this._d.delay("pending") - Date.now();
    if (g.status === "pending") {
      await sleep(Math.max(0, pendingLeft));
      if (!this.step(g, "dispatched")) return;
    }
    if (g.status === "dispatched") {
      await sleep(this._d.delay("dispatch"));
      if (!this.step(g, "processing")) return;
    }
    await this.render(g, submitted);
  }

  private async render(g: GenerationEntity, submitted: number): Promise<void> {
    const queued = Date.now() - submitted;
    const minimum = sleep(this._d.delay("processing"));
    const dir = generationDir(this._d.dataDir, g.obfuscatedId);
    const stop = new AbortController();
    this._rendering.set(g.id, stop);
    try {
      mkdirSync(dir, { recursive: true });
      const result = await this._d.imagery.generate(
        renderRequestOf(g, this._d.store, this._d.dataDir, this._d.imageScale),
        dir,
        stop.signal,
      );
      const synced = performance.now();
      await syncFolderFiles(dir);
      const syncMs = performance.now() - synced;
      await minimum;
      if (g.status !== "processing" || this.queue.closed) return;
      g.enhancedPrompt = result.enhancedPrompt;
      this.finish(g, "complete", null);
      this._d.debug(generationTimingsLine(g.id, queued, result.timings, syncMs));
    } catch (error) {
      // Stopped by the shutdown (its workers end): not a failure, the next start renders it again.
      if (g.status !== "processing" || this.queue.closed) return;
      this._d.log(`generation ${g.id} failed: ${(error as Error).message}`);
      this.finish(g, "error", `Rendering failed: ${(error as Error).message}`);
    } finally {
      this._rendering.delete(g.id);
      // Cancelled while rendering: every write has settled now, so the files can go.
      if (g.status === "abort") this.removeFiles(g);
    }
  }

  /** Moves an active generation one step; false when it was cancelled meanwhile. */
  private step(g: GenerationEntity, status: "dispatched" | "processing"): boolean {
    // Shutting down: the generation stays where it is on disk, and the next start resumes it.
    if (!isActive(g) || this.queue.closed) return false;
    const now = offsetTimestamp();
    g.status = status;
    g.updatedAt = now;
    if (status === "dispatched") g.dispatchedAt = now;
    else g.processingAt = now;
    this._d.store.changed(g);
    this._d.events.generation(g);
    return true;
  }

  private finish(g: GenerationEntity, status: "complete" | "error" | "abort", errorMessage: string | null): void {
    const now = offsetTimestamp();
    g.status = status;
    g.errorMessage = errorMessage;
    g.updatedAt = now;
    if (status === "complete") g.completedAt = now;
    else {
      const account = this._d.accounts.byId(g.accountId);
      if (account && g.cost > 0) this._d.accounts.refund(account, g.cost);
    }
    this._d.store.changed(g);
    // Files go only once the abort is on disk: a crash before that resumes the generation,
    // which needs them. A render under way is stopped; its own ending removes them.
    if (status === "abort") {
      const render = this._rendering.get(g.id);
      if (render) render.abort(new Error(`generation ${g.id} was cancelled`));
      else this.removeFiles(g);
    }
    this._d.events.generation(g);
  }

  private removeFiles(g: GenerationEntity): void {
    try {
      rmSync(generationDir(this._d.dataDir, g.obfuscatedId), { recursive: true, force: true });
    } catch (error) {
      this._d.log(`generation ${g.id}: its files could not be removed: ${(error as Error).message}`);
    }
  }

  /** Waiting generations whose position changed get a pending event with the new position. */
  private positionsMoved(ids: number[]): void {
    for (const id of ids) {
      const g = this._d.store.generations.get(id);
      if (g?.status === "pending") this._d.events.generation(g);
    }
  }
}
