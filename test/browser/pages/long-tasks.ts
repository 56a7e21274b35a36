/**
 * What the main thread went through while something ran: the long tasks Chromium reports
 * (`PerformanceObserver`, entry type "longtask": any task over 50 ms) and the frames the
 * render loop took over 50 ms to draw (requestAnimationFrame to requestAnimationFrame).
 */

/** A task or frame over 50 ms, in milliseconds from the start of the recording. */
export interface Blocked {
  start: number;
  duration: number;
}

/** What a recording saw. */
export interface MainThreadRecord {
  longTasks: Blocked[];
  slowFrames: Blocked[];
}

/** Threshold of a long task, as the Long Tasks API and the issue count them. */
export const LONG_MS = 50;

/** Starts recording; `stop()` returns what was seen since. */
export function recordMainThread(): { stop(): MainThreadRecord } {
  const t0 = performance.now();
  const longTasks: Blocked[] = [];
  const slowFrames: Blocked[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) longTasks.push({ start: e.startTime - t0, duration: e.duration });
  });
  observer.observe({ type: "longtask" });
  let running = true;
  let last = performance.now();
  const tick = (now: number) => {
    if (now - last > LONG_MS) slowFrames.push({ start: last - t0, duration: now - last });
    last = now;
    if (running) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  return {
    stop() {
      running = false;
      for (const e of observer.takeRecords()) longTasks.push({ start: e.startTime - t0, duration: e.duration });
      observer.disconnect();
      // Tasks that began before the recording are not ours to count.
      return { longTasks: longTasks.filter((t) => t.start >= 0), slowFrames };
    },
  };
}

/** A WebGL call that held the main thread for long, by name: what a long task was made of. */
export interface SlowCall {
  name: string;
  start: number;
  duration: number;
}

/** WebGL calls over this many milliseconds are listed. */
const SLOW_CALL_MS = 10;

/**
 * Times every call of the WebGL 2 context's methods from now on and lists the slow ones
 * (`take()` empties the list). Timing a call costs two clock reads: the figures hardly move.
 */
export function watchWebGLCalls(): { take(since: number): SlowCall[] } {
  const slow: SlowCall[] = [];
  const proto = WebGL2RenderingContext.prototype as unknown as Record<string, unknown>;
  for (const name of Object.getOwnPropertyNames(proto)) {
    const descriptor = Object.getOwnPropertyDescriptor(proto, name);
    if (typeof descriptor?.value !== "function" || name === "constructor") continue;
    const original = descriptor.value as (...args: unknown[]) => unknown;
    proto[name] = function (this: unknown, ...args: unknown[]) {
      const t = performance.now();
      const out = original.apply(this, args);
      const d = performance.now() - t;
      if (d > SLOW_CALL_MS) slow.push({ name, start: t, duration: d });
      return out;
    };
  }
  return {
    take(since: number) {
      return slow.splice(0).map((c) => ({ ...c, start: c.start - since }));
    },
  };
}
