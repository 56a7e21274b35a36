/** What a queue runs, how many at once, and whom it tells. */
export interface JobQueueOptions<Id> {
  concurrency: number;
  run: (id: Id) => Promise<void>;
  /** Every job whose position moved. */
  onPositions?: (moved: Id[]) => void;
  /** A job that threw instead of ending itself: it must still end (the runner marks it failed). */
  onFailure?: (id: Id, error: unknown) => void;
}

/**
 * A FIFO of jobs waiting for one of `concurrency` slots. Positions are 1-based while
 * waiting and 0 once a job runs; `onPositions` fires with every job whose position moved,
 * so clients see their queue position change live.
 */
export class JobQueue<Id extends string | number> {
  private readonly _waiting: Id[] = [];
  private readonly _running = new Set<Id>();
  private _closed = false;

  private readonly _concurrency: number;
  private readonly _run: (id: Id) => Promise<void>;
  private readonly _onPositions: (moved: Id[]) => void;
  private readonly _onFailure: (id: Id, error: unknown) => void;

  constructor(options: JobQueueOptions<Id>) {
    this._concurrency = options.concurrency;
    this._run = options.run;
    this._onPositions = options.onPositions ?? (() => {});
    this._onFailure = options.onFailure ?? (() => {});
  }

  enqueue(id: Id): void {
    if (this._waiting.includes(id) || this._running.has(id)) return;
    this._waiting.push(id);
    this.pump();
  }

  /** Takes a waiting job out of the queue (cancel); running jobs finish on their own. */
  remove(id: Id): void {
    const at = this._waiting.indexOf(id);
    if (at < 0) return;
    this._waiting.splice(at, 1);
    this._onPositions(this._waiting.slice(at));
  }

  position(id: Id): number {
    const at = this._waiting.indexOf(id);
    return at < 0 ? 0 : at + 1;
  }

  get waiting(): number {
    return this._waiting.length;
  }

  get running(): number {
    return this._running.size;
  }

  /** Starts no more jobs; those running see `closed` and stop at their next step (the service is shutting down). */
  close(): void {
    this._closed = true;
  }

  get closed(): boolean {
    return this._closed;
  }

  private pump(): void {
    while (!this._closed && this._running.size < this._concurrency && this._waiting.length) {
      const id = this._waiting.shift()!;
      this._running.add(id);
      this._onPositions(this._waiting.slice());
      void this._run(id)
        .catch((error: unknown) => this._onFailure(id, error))
        .finally(() => {
          this._running.delete(id);
          this.pump();
        });
    }
  }
}
