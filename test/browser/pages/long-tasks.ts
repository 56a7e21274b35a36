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

/** A named step of ours (a user timing measure, src/scene/scheduling/step-timing.ts) that ran while recording. */
export interface Step {
  name: string;
  start: number;
  duration: number;
}

/** What a recording saw. */
export interface MainThreadRecord {
  longTasks: Blocked[];
  slowFrames: Blocked[];
  /** Our steps of a millisecond or more, by name (without the prefix). */
  steps: Step[];
  /** Every step of ours, however short, by name: its time in all and how many times it ran. */
  stepTotals: Record<string, { ms: number; count: number }>;
}

/** What our steps' measures are named with (src/scene/scheduling/step-timing.ts; the page cannot import the library's internals). */
const STEP_PREFIX = "babylon-skybox:";

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
  const steps: Step[] = [];
  const stepTotals: MainThreadRecord["stepTotals"] = {};
  const take = (entries: PerformanceEntryList) => {
    for (const e of entries) {
      if (!e.name.startsWith(STEP_PREFIX) || e.startTime < t0) continue;
      const name = e.name.slice(STEP_PREFIX.length);
      const total = (stepTotals[name] ??= { ms: 0, count: 0 });
      total.ms += e.duration;
      total.count++;
      if (e.duration >= 1) steps.push({ name, start: e.startTime - t0, duration: e.duration });
    }
  };
  const stepObserver = new PerformanceObserver((list) => take(list.getEntries()));
  stepObserver.observe({ type: "measure" });
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
      take(stepObserver.takeRecords());
      observer.disconnect();
      stepObserver.disconnect();
      performance.clearMeasures();
      // Tasks that began before the recording are not ours to count.
      return { longTasks: longTasks.filter((t) => t.start >= 0), slowFrames, steps, stepTotals };
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
export const SHADER_CALLS: readonly string[] = [
  "compileShader",
  "linkProgram",
  "getShaderParameter",
  "getProgramParameter",
  "getShaderInfoLog",
  "getProgramInfoLog",
  "getUniformBlockIndex",
  "getUniformLocation",
  "getAttribLocation",
  "getActiveUniform",
  "getActiveAttrib",
  "getUniformIndices",
  "getActiveUniforms",
  "uniformBlockBinding",
  "useProgram",
];

/** Shader calls over this many milliseconds are listed (enough of them to explain a long task). */
const SLOW_SHADER_CALL_MS = 1;

/**
 * Times every call of the WebGL 2 context's methods from now on and lists the slow ones, the
 * shader calls over a millisecond, every synchronous `readPixels` and every upload of a picture
 * (`take()` empties the list). Timing a call costs two clock reads: the figures hardly move.
 */
export function watchWebGLCalls(): { push(call: SlowCall): void; take(since: number): SlowCall[] } {
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
      // A read into memory (not into a pixel-pack buffer at an offset) waits for the GPU, and a
      // picture's upload says how it was decoded: both listed whatever they took.
      if (d > threshold || (name === "readPixels" && typeof args[6] !== "number") || isPictureUpload(name, args))
        slow.push({ name: callName(name, args), start: t, duration: d });
      return out;
    };
  }
  return {
    push: (call: SlowCall) => void slow.push(call),
    take(since: number) {
      return slow.splice(0).map((c) => ({ ...c, start: c.start - since }));
    },
  };
}

/** What an upload takes its pixels from when it is a picture (not an array of texels). */
const PICTURES = ["ImageBitmap", "HTMLImageElement", "HTMLCanvasElement", "OffscreenCanvas", "ImageData", "VideoFrame"];

/** Whether a call uploads a picture (an image element, a bitmap, a canvas...) rather than an array of texels. */
function isPictureUpload(name: string, args: unknown[]): boolean {
  if (name !== "texImage2D" && name !== "texSubImage2D") return false;
  const kind = (args.at(-1) as { constructor?: { name?: string } } | null)?.constructor?.name;
  return kind !== undefined && PICTURES.includes(kind);
}

/**
 * A call's name as the lists show it: a synchronous read-back says so, and an upload of a
 * picture names its source and size ("texImage2D (ImageBitmap 4096x2048)").
 */
function callName(name: string, args: unknown[]): string {
  if (name === "readPixels") return typeof args[6] !== "number" ? "readPixels (synchronous)" : name;
  if (name !== "texImage2D" && name !== "texSubImage2D") return name;
  const source = args.at(-1) as { constructor?: { name?: string }; width?: number; height?: number } | null;
  const kind = source?.constructor?.name;
  return kind && PICTURES.includes(kind) ? `${name} (${kind} ${source.width}x${source.height})` : name;
}

/**
 * The GPU steps a software GPU may take over 50 ms for, whoever calls them: preparing a
 * shader program (with no KHR_parallel_shader_compile, Babylon's processing of its code and
 * the driver's compile and link in one task: `watchShaderPreparation`), uploading a picture
 * (`texImage2D` of an ImageBitmap: the copy of its pixels into the GPU texture, one call), and
 * the one read of a bake's pixel-pack buffer once its fence has passed (`getBufferSubData`: a
 * round trip to the GPU process, which answers once it has drawn the frame it is on). Every
 * other long task, or the rest of one once these are taken out, is ours.
 */
export function isNamedGpuStep(call: SlowCall): boolean {
  return (
    SHADER_CALLS.includes(call.name) ||
    call.name.startsWith(SHADER_PREPARATION) ||
    call.name === "getBufferSubData" ||
    /^tex(Sub)?Image2D \(ImageBitmap \d+x\d+\)$/.test(call.name)
  );
}

/** How `watchShaderPreparation` names the spans it records. */
const SHADER_PREPARATION = "shader program";

/**
 * Records Babylon's preparation of each shader program (an Effect's processing of its code,
 * its compile and link, and the look-up of its uniforms once linked) as spans: with no KHR_parallel_shader_compile (this
 * machine's SwiftShader has none) the driver compiles in these calls, and the many small
 * shader calls in them each stay under the threshold the WebGL watch lists.
 * @param effect Babylon's Effect class, whose prototype is wrapped
 * @param into the list the spans go to (the WebGL watch's)
 */
export function watchShaderPreparation(effect: { prototype: object }, into: { push(call: SlowCall): void }): void {
  const proto = effect.prototype as Record<string, (...args: unknown[]) => unknown>;
  // Processing the code (its synchronous part: includes, defines, the GLSL 3 migration), compiling and linking, reading back the uniforms.
  for (const name of ["_processShaderCodeAsync", "_prepareEffect", "_isReadyInternal"]) {
    const original = proto[name];
    if (typeof original !== "function") continue;
    proto[name] = function (this: unknown, ...args: unknown[]) {
      const t = performance.now();
      const out = original.apply(this, args);
      const d = performance.now() - t;
      if (d > SLOW_SHADER_CALL_MS) into.push({ name: `${SHADER_PREPARATION} (Effect.${name})`, start: t, duration: d });
      return out;
    };
  }
}

/** What ran within a long task: our named steps and the slow WebGL calls, longest first. */
export function within<T extends { start: number; duration: number }>(task: Blocked, entries: readonly T[]): T[] {
  return entries
    .filter((e) => e.start >= task.start - 1 && e.start + e.duration <= task.start + task.duration + 1)
    .sort((a, b) => b.duration - a.duration);
}

/** The time of a long task not spent in named GPU steps (nested ones counted once). */
export function unexplained(task: Blocked, calls: readonly SlowCall[]): number {
  let covered = 0;
  let reach = -Infinity;
  for (const c of within(task, calls.filter(isNamedGpuStep)).sort((a, b) => a.start - b.start)) {
    const end = c.start + c.duration;
    covered += Math.max(0, end - Math.max(c.start, reach));
    reach = Math.max(reach, end);
  }
  return task.duration - covered;
}

/** Steps of ours that are one named GPU step and nothing else: the bake's buffer read (texel-readback.ts). */
const GPU_READ_STEPS = ["bake-read"];

/**
 * The time of a long task spent in steps of ours (src/scene/scheduling/step-timing.ts), the named GPU
 * steps inside them taken out: what our code held the page for. The rest of a long task is
 * the page's own frame on a software GPU, a garbage collection or Babylon's own work.
 */
export function ours(task: Blocked, steps: readonly Step[], calls: readonly SlowCall[]): number {
  const mine = within(task, steps).filter((s) => !GPU_READ_STEPS.some((name) => s.name.endsWith(name)));
  const gpu = within(task, calls.filter(isNamedGpuStep));
  const covers = (entries: readonly Blocked[], t: number) => entries.some((e) => e.start <= t && t <= e.start + e.duration);
  const points = [...new Set([...mine, ...gpu].flatMap((e) => [e.start, e.start + e.duration]))].sort((a, b) => a - b);
  let total = 0;
  for (let i = 0; i + 1 < points.length; i++) {
    const mid = (points[i]! + points[i + 1]!) / 2;
    if (covers(mine, mid) && !covers(gpu, mid)) total += points[i + 1]! - points[i]!;
  }
  return total;
}

/** A long task in words: its length and the three longest steps and calls in it ("412 ms: texImage2D (ImageBitmap 4096x2048) 380 ms, show 20 ms"). */
export function describeTask(task: Blocked, steps: readonly Step[], calls: readonly SlowCall[]): string {
  const parts = within(task, [...steps, ...calls])
    .slice(0, 3)
    .map((e) => `${e.name} ${Math.round(e.duration)} ms`);
  return `${Math.round(task.duration)} ms${parts.length ? `: ${parts.join(", ")}` : " (no named step)"}`;
}
