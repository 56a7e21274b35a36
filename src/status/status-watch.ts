import { SkyboxApiError } from "../api/errors/skybox-api-error.ts";
import type { Feed, FeedListener } from "./feeds/feed.ts";
import type { Timing, WatchOptions } from "./status-options.ts";
import { isTransient, PollBackoff, retryAfterMs } from "./poll-timing.ts";
import type { ChannelRef, Tracked } from "./tracked/tracked.ts";
import type { StatusUpdate, UpdateSource } from "./updates.ts";
import { UpdateStream } from "./update-stream.ts";

/** What a watch needs from its tracker. */
export interface WatchContext {
  timing: Timing;
  /** Opens the tracker's push sources on `channels` (none when it has none). */
  openFeeds(channels: readonly ChannelRef[], listener: (source: "push" | "relay") => FeedListener): Feed[];
  /** The watch ended (terminal, stopped or failed). */
  ended(watch: StatusWatch<StatusUpdate, unknown>): void;
}

/**
 * One subject followed until its status is terminal. Messages from the push channel and
 * the relay and the answers of polls all go through the tracked subject, which keeps only
 * forward moves; each accepted change becomes an update. Polls run while no push source is
 * live (backing off while nothing changes, honouring Retry-After), once whenever a source
 * comes up or goes down, and every `safetyPollMs` while one is live.
 *
 * `done` resolves with the terminal record whatever its status (`complete`, `error`,
 * `abort`; `finalized` for batches): check `status`. It rejects only when the watch could
 * not go on: stopped (kind `aborted`) or a poll failed for good (e.g. `not_found`).
 */
export class StatusWatch<U extends StatusUpdate, R> implements AsyncIterable<U> {
  private readonly _stream = new UpdateStream<U, R>();
  private readonly _abort = new AbortController();
  private readonly _backoff: PollBackoff;
  private _feeds: Feed[] | null = null;
  private _timer: ReturnType<typeof setTimeout> | undefined;
  private _polling = false;
  private _pollAgain = false;
  /** No poll before this time (Date.now ms): the server's Retry-After. */
  private _notBefore = 0;
  private _polls = 0;
  /** The last transient poll failure, for diagnostics. */
  lastError: unknown = null;

  /** Made by a `StatusTracker`'s `watch*` methods, not by hand. */
  constructor(
    private readonly _tracked: Tracked<R, U>,
    private readonly _ctx: WatchContext,
    options: WatchOptions<U> = {},
  ) {
    this._backoff = new PollBackoff(_ctx.timing.pollIntervalMs, _ctx.timing.maxPollIntervalMs);
    if (options.onUpdate) this._stream.listen(options.onUpdate);
    const signal = options.signal;
    if (signal) {
      const onAbort = () => this.stop(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      this._stream.done.finally(() => signal.removeEventListener("abort", onAbort)).catch(() => undefined);
    }
    // Started after the caller holds the watch, so listeners added now hear the first update.
    queueMicrotask(() => (signal?.aborted ? this.stop(signal.reason) : this._start()));
  }

  /** Resolves with the terminal record; rejects when stopped or when polling failed for good. */
  get done(): Promise<R> {
    return this._stream.done;
  }

  /** The newest record accepted. */
  get current(): R | undefined {
    return this._tracked.record;
  }

  /** Every update so far, in order. */
  get updates(): readonly U[] {
    return this._stream.items;
  }

  /** True while a push source (push channel or relay) is live for this watch. */
  get pushLive(): boolean {
    return this._feeds?.some((f) => f.live) ?? false;
  }

  /** Polls sent so far (the first fetch of a subject given by id included). */
  get polls(): number {
    return this._polls;
  }

  /** True once the watch has delivered its last update. */
  get ended(): boolean {
    return this._stream.ended;
  }

  /** Calls `listener` with each later update (earlier ones are in `updates`); returns the function that stops it. */
  onUpdate(listener: (update: U) => void): () => void {
    return this._stream.listen(listener);
  }

  /** Iterates the updates in order, until the subject ends or the watch stops. */
  [Symbol.asyncIterator](): AsyncIterator<U> {
    return this._stream[Symbol.asyncIterator]();
  }

  /** Stops watching: `done` rejects and iterators throw a SkyboxApiError of kind `aborted`. */
  stop(reason?: unknown): void {
    if (this.ended) return;
    this._end();
    const cause = reason === undefined ? {} : { cause: reason };
    this._stream.fail(new SkyboxApiError({ kind: "aborted", status: 0, serverMessage: "The status watch was stopped", ...cause }));
  }

  /**
   * Polls at once and starts the backoff over (the server's Retry-After still holds): after
   * the connection came back, the watch catches up now rather than after its longest wait.
   */
  pollNow(): void {
    if (this.ended) return;
    this._backoff.reset();
    this._pollNow();
  }

  private _start(): void {
    if (this.ended) return;
    if (this._tracked.record) this._accept("initial", true);
    else this._pollNow();
  }

  /** After a change from any source: an update, then the end or the feeds. */
  private _accept(source: UpdateSource, changed: boolean): void {
    if (this.ended || !this._tracked.record) return;
    if (changed) this._stream.push(this._tracked.update(source));
    if (this._tracked.terminal) return this._finish();
    if (!this._feeds) this._openFeeds();
    if (this._tracked.needsPoll) this._pollNow();
  }

  private _openFeeds(): void {
    this._feeds = this._ctx.openFeeds(this._tracked.channels(), (source) => ({
      record: (raw) => {
        if (!this.ended) this._accept(source, this._tracked.merge(raw));
      },
      live: (up) => {
        if (this.ended) return;
        // Up: catch what was sent before the subscription. Down: polling takes over now.
        if (up) return this._pollNow();
        if (this.pushLive) return;
        this._backoff.reset();
        this._pollNow();
      },
    }));
    this._schedule();
  }

  private _pollNow(): void {
    if (this._polling) {
      this._pollAgain = true;
      return;
    }
    this._setTimer(0);
  }

  /** The next regular poll: the safety poll while a push source is live, else the backoff. */
  private _schedule(): void {
    const safety = this._ctx.timing.safetyPollMs;
    if (!this.pushLive) this._setTimer(this._backoff.ms);
    else if (safety > 0 && Number.isFinite(safety)) this._setTimer(safety);
    else clearTimeout(this._timer);
  }

  private _setTimer(ms: number): void {
    clearTimeout(this._timer);
    this._timer = setTimeout(() => void this._poll(), Math.max(ms, this._notBefore - Date.now()));
  }

  private async _poll(): Promise<void> {
    if (this.ended) return;
    this._polling = true;
    this._polls++;
    let changed = false;
    try {
      changed = await this._tracked.poll(this._abort.signal);
      if (changed) this._backoff.reset();
      else this._backoff.grow();
    } catch (error) {
      if (this.ended) return;
      if (!isTransient(error)) return this._fail(error);
      this.lastError = error;
      this._notBefore = Date.now() + retryAfterMs(error);
      this._backoff.grow();
    } finally {
      this._polling = false;
    }
    this._accept("poll", changed);
    if (this.ended) return;
    if (this._pollAgain) {
      this._pollAgain = false;
      this._pollNow();
    } else this._schedule();
  }

  private _finish(): void {
    this._end();
    this._stream.finish(this._tracked.record!);
  }

  private _fail(error: unknown): void {
    this._end();
    this._stream.fail(error);
  }

  private _end(): void {
    clearTimeout(this._timer);
    this._abort.abort();
    this._feeds?.forEach((f) => f.close());
    this._ctx.ended(this as unknown as StatusWatch<StatusUpdate, unknown>);
  }
}
