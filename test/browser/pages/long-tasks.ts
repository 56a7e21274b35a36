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

/** A WebGL call that held the main thread for long (or a shader call for a millisecond), by name: what a long task was made of. */
export interface SlowCall {
  name: string;
  start: number;
  duration: number;
}

/** WebGL calls over this many milliseconds are listed. */
const SLOW_CALL_MS = 10;

/**
 * The calls that wait for a shader program to compile and link: on a software GPU the
 * compilation itself (a GPU step of the driver's), whoever asks first pays for it.
 */
export const SHADER_CALLS: readonly string[] = ["compileShader", "linkProgram", "getShaderParameter", "getProgramParameter", "getShaderInfoLog", "getProgramInfoLog", "getUniformBlockIndex", "getUniformLocation", "getAttribLocation", "getActiveUniform", "getActiveAttrib", "getUniformIndices", "getActiveUniforms", "uniformBlockBinding", "useProgram"];

/** Shader calls over this many milliseconds are listed (enough of them to explain a long task). */
const SLOW_SHADER_CALL_MS = 1;

/**
 * Times every call of the WebGL 2 context's methods from now on and lists the slow ones, the
 * shader calls over a millisecond and every synchronous `readPixels` (`take()` empties the list). Timing a call costs two clock reads: the figures hardly move.
 */
export function watchWebGLCalls(): { take(since: number): SlowCall[] } {
  const slow: SlowCall[] = [];
  const shader = new Set(SHADER_CALLS);
  const proto = WebGL2RenderingContext.prototype as unknown as Record<string, unknown>;
  for (const name of Object.getOwnPropertyNames(proto)) {
    const descriptor = Object.getOwnPropertyDescriptor(proto, name);
    if (typeof descriptor?.value !== "function" || name === "constructor") continue;
    const original = descriptor.value as (...args: unknown[]) => unknown;
    const threshold = shader.has(name) ? SLOW_SHADER_CALL_MS : SLOW_CALL_MS;
    proto[name] = function (this: unknown, ...args: unknown[]) {
      const t = performance.now();
      const out = original.apply(this, args);
      const d = performance.now() - t;
      // A read into memory (not into a pixel-pack buffer at an offset) waits for the GPU: listed whatever it took.
      if (d > threshold || (name === "readPixels" && typeof args[6] !== "number")) slow.push({ name: name === "readPixels" && typeof args[6] !== "number" ? "readPixels (synchronous)" : name, start: t, duration: d });
      return out;
    };
  }
  return {
    take(since: number) {
      return slow.splice(0).map((c) => ({ ...c, start: c.start - since }));
    },
  };
}
