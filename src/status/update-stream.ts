/**
 * The updates of one watch, kept in order: any number of async iterators (each from the
 * first update), callbacks, and the promise of the last record. Iterators end after the
 * terminal update, or throw the error that stopped the watch.
 */
export class UpdateStream<U, R> implements AsyncIterable<U> {
  readonly done: Promise<R>;
  private readonly _items: U[] = [];
  private readonly _listeners = new Set<(update: U) => void>();
  private _wake = new Set<() => void>();
  private _ended: { error: unknown } | null = null;
  private _settle!: { resolve: (record: R) => void; reject: (error: unknown) => void };

  constructor() {
    this.done = new Promise<R>((resolve, reject) => (this._settle = { resolve, reject }));
    // A caller that only iterates, or only listens, need not handle `done`.
    this.done.catch(() => undefined);
  }

  get items(): readonly U[] {
    return this._items;
  }

  get ended(): boolean {
    return this._ended !== null;
  }

  /** Calls `listener` with each later update; returns the function that stops it. */
  listen(listener: (update: U) => void): () => void {
    this._listeners.add(listener);
    return () => this._listeners.delete(listener);
  }

  push(update: U): void {
    if (this._ended) return;
    this._items.push(update);
    for (const l of [...this._listeners]) {
      try {
        l(update);
      } catch (error) {
        // A listener's bug must not stop the watch; it still surfaces as an uncaught error.
        setTimeout(() => {
          throw error;
        });
      }
    }
    this._notify();
  }

  finish(record: R): void {
    if (this._ended) return;
    this._ended = { error: undefined };
    this._settle.resolve(record);
    this._notify();
  }

  fail(error: unknown): void {
    if (this._ended) return;
    this._ended = { error };
    this._settle.reject(error);
    this._notify();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<U, void, undefined> {
    for (let i = 0; ;) {
      if (i < this._items.length) yield this._items[i++]!;
      else if (this._ended) {
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- the stream ends with its source's failure, as it was
        if (this._ended.error !== undefined) throw this._ended.error;
        return;
      } else await new Promise<void>((resolve) => this._wake.add(resolve));
    }
  }

  private _notify(): void {
    const wake = this._wake;
    this._wake = new Set();
    wake.forEach((w) => w());
  }
}
