import type { StatusTracker } from "../../../status/index.ts";

/** A watch of the status tracker, as `follow` starts it. */
export interface RunningWatch {
  stop(): void;
  done: Promise<unknown>;
}

/**
 * The status watches a slice has under way: each one starts once the tracker exists and is
 * followed until its request ends; all of them stop together when the pane is disposed
 * (nothing is cancelled on the service). Generations, batches and exports follow this one path.
 */
export class Watches {
  private readonly _running = new Map<string, { stop(): void }>();

  /**
   * @param _tracker the status tracker, made on first use
   */
  public constructor(private readonly _tracker: () => Promise<StatusTracker>) {}

  /**
   * Follows one request until it ends.
   * @param key names the watch (a job key or an export id)
   * @param start starts the tracker's watch, with its update handler
   * @param onLost told why, when the request could not be followed to its end
   */
  public async follow(key: string, start: (tracker: StatusTracker) => RunningWatch, onLost: (error: unknown) => void): Promise<void> {
    try {
      const watch = start(await this._tracker());
      this._running.set(key, watch);
      await watch.done;
    } catch (error) {
      onLost(error);
    } finally {
      this._running.delete(key);
    }
  }

  /** Stops every watch under way. */
  public stopAll(): void {
    this._running.forEach((w) => w.stop());
    this._running.clear();
  }
}
