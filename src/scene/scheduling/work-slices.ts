/**
 * CPU work spread over tasks: it runs while its slice of time lasts, then waits for the next
 * one, so no task of it grows with the size of what it works on and the page draws between.
 */
import type { IdleSlice } from "./idle-time.ts";

/** Waits for a slice of time to work in. */
export type WaitForSlice = (signal: AbortSignal) => Promise<IdleSlice>;

/** How long a slice in the next task lasts: a frame's budget, well under a long task's 50 ms. */
export const TASK_SLICE_MS = 12;

/**
 * A slice of TASK_SLICE_MS in the next task: for work someone waits for (an apply, a save),
 * which must not wait for idle time but must let the page draw.
 * @param signal rejects with its reason once aborted
 */
export function nextTaskSlice(signal: AbortSignal): Promise<IdleSlice> {
  return new Promise((resolve, reject) => {
    setTimeout(() => {
      if (signal.aborted) return reject(signal.reason);
      const end = performance.now() + TASK_SLICE_MS;
      resolve({ timeRemaining: () => end - performance.now() });
    }, 0);
  });
}

/** Work time for the CPU's share: the slice at hand, and a new one waited for once it is spent. */
export class WorkSlices {
  private _slice: IdleSlice | null = null;

  /**
   * @param _wait gives the slices
   * @param _signal stops the wait (rejects with its reason)
   */
  constructor(
    private readonly _wait: WaitForSlice,
    private readonly _signal: AbortSignal = new AbortController().signal,
  ) {}

  /** Resolves at once while the slice at hand lasts, else at the next slice. */
  async next(): Promise<void> {
    this._signal.throwIfAborted();
    if (!this._slice || this._slice.timeRemaining() <= 0) this._slice = await this._wait(this._signal);
  }
}
