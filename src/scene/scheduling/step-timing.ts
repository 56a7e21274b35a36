/**
 * The main-thread steps of an apply named in the browser's performance timeline (user timing
 * `measure` entries, shown by DevTools and read by a `PerformanceObserver`): a task that holds
 * the page is then known by what ran in it. A step is one synchronous stretch of work; work
 * spread over slices names each slice.
 */

/** What every step's entry name starts with. */
export const STEP_PREFIX = "babylon-skybox:";

/**
 * Runs `run` and records it as the step `step`.
 * @param step the step's name (after STEP_PREFIX)
 * @param run synchronous work
 * @returns what `run` returns
 */
export function timedStep<T>(step: string, run: () => T): T {
  const start = performance.now();
  try {
    return run();
  } finally {
    performance.measure(STEP_PREFIX + step, { start, end: performance.now() });
  }
}
