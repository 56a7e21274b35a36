/**
 * Idle time for background work (baking an environment for the cache): the browser's idle
 * callback, so the work runs between frames and input, never instead of them. A deadline
 * caps the wait, so a page that is never idle (a busy render loop) still gets it done, and a
 * slice is never shorter than a few milliseconds, so such a page gets it done in a few waits.
 */

/** A slice of idle time: how much of it is left. */
export interface IdleSlice {
  timeRemaining(): number;
}

/** Shortest slice: what a timed-out idle callback (no time left) or a plain timer gets. */
const MIN_SLICE_MS = 5;

/**
 * Resolves at the next idle period, or after `timeoutMs` at the latest.
 * @param signal rejects with its reason once aborted, and the callback is cancelled
 * @param timeoutMs longest wait
 * @returns the slice: work while `timeRemaining()` is above 0, then ask again
 */
export function idleSlice(signal: AbortSignal, timeoutMs = 500): Promise<IdleSlice> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      cancel();
      reject(signal.reason);
    };
    const done = (slice: IdleSlice) => {
      signal.removeEventListener("abort", onAbort);
      resolve(slice);
    };
    const cancel = schedule(done, timeoutMs);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function schedule(done: (slice: IdleSlice) => void, timeoutMs: number): () => void {
  const start = (deadline?: IdleSlice) => {
    const end = performance.now() + MIN_SLICE_MS;
    done({ timeRemaining: () => Math.max(deadline?.timeRemaining() ?? 0, end - performance.now()) });
  };
  const global = globalThis as { requestIdleCallback?: typeof requestIdleCallback; cancelIdleCallback?: typeof cancelIdleCallback };
  if (global.requestIdleCallback && global.cancelIdleCallback) {
    const handle = global.requestIdleCallback(start, { timeout: timeoutMs });
    return () => global.cancelIdleCallback!(handle);
  }
  const timer = setTimeout(start, 0);
  return () => clearTimeout(timer);
}
