/**
 * One generation as a set of parallel jobs: column marches at image and depth size, then
 * row bands of rendering, water reflection and finishing (image) and of distances
 * (depth), then scanline bands of radiance.hdr, and the files (scene.json with the image's:
 * it records the irradiance of the sun disk the finishing bands report). Only coordination happens
 * on the calling thread; every heavy step is a job for the runner (the worker pool).
 *
 * The work is cut finely enough (about RUNNER_PARTS bands per worker and phase) and
 * queued most expensive first, so the workers finish each phase together: rows just below
 * the horizon (distant ground, full detail) first, the sky near the zenith and the ground
 * under the camera (cheap) last. Files are encoded as soon as their pixels are final, so
 * sharp's encoders run while the workers still encode radiance.hdr, then written once and
 * flushed together.
 */
import { mkdir } from "node:fs/promises";
import { settleAll } from "../../settle-all.ts";
import type { RenderRequest, RenderResult, RenderTimings } from "../contract.ts";
import { enhancePrompt } from "../prompt/enhance-prompt.ts";
import { allocateTaskMemory } from "./render-buffers.ts";
import { finishesInPlace } from "../render/finish-rows.ts";
import type { ImageryJob, ImageryJobResult, RenderTask, RowJobKind, SunIrradiance } from "./render-jobs.ts";
import { resolveRender } from "./scene-resolution.ts";
import { encodeDepth, encodePictures, radianceFile, sceneFile, writeStoredFiles } from "./skybox-outputs.ts";

/** Runs jobs somewhere (the worker pool, or the current thread in `inlineRunner`). */
export interface JobRunner {
  /** How many jobs can run at once (sets how finely work is split). */
  readonly size: number;
  /** Runs `job`; a job still waiting for a worker when `signal` aborts is dropped (rejects). */
  run(job: ImageryJob, signal?: AbortSignal): Promise<ImageryJobResult>;
  /** Tells workers a task is finished so they drop its cached state. */
  release?(taskId: string): void;
  /** Resolves once the workers have started (the time a cold start costs). */
  ready?(): Promise<void>;
}

/** Bands per worker and phase (at least; tall images get bands of about BAND_ROWS rows). */
const RUNNER_PARTS = 6;
const BAND_ROWS = 32;
const MAX_PARTS = 64;

let taskCounter = 0;

/**
 * Renders `req` into `dir`. Aborting `signal` (a cancelled or deleted generation) drops the
 * jobs not started yet and ends the render with the signal's reason. Either way, it settles
 * only once every file write it started has settled, so the caller may then remove `dir`.
 */
export async function renderSkybox(runner: JobRunner, req: RenderRequest, dir: string, signal?: AbortSignal): Promise<RenderResult> {
  const t0 = performance.now();
  await runner.ready?.();
  const started = performance.now();
  const { scene, guides, stored } = await resolveRender(req);
  const { size, depthSize } = req;
  const memory = allocateTaskMemory(size.width, size.height, depthSize.width, depthSize.height, finishesInPlace(scene.look));
  const task: RenderTask = { id: `${process.pid}-${++taskCounter}`, scene, memory, guides };
  const partsOf = (n: number) => Math.max(runner.size * RUNNER_PARTS, Math.min(MAX_PARTS, Math.ceil(n / BAND_ROWS)));
  const all = <T>(jobs: ImageryJob[]) => settleAll(jobs.map((job) => runner.run(job, signal) as Promise<T>));
  const columns = (target: "image" | "depth", width: number) =>
    all(spans(0, width, partsOf(width)).map(([x0, x1]) => ({ kind: "march", task, target, x0, x1 }) as const));
  const rows = <T = null>(kind: RowJobKind, y0: number, height: number, horizon: number) =>
    all<T>(costliestFirst(spans(y0, height, partsOf(height - y0)), horizon).map(([a, b]) => ({ kind, task, y0: a, y1: b }) as const));
  // The last pixel pass to end marks the end of rendering (the depth files encode meanwhile).
  let rendered = started;
  const pixelsDone = () => (rendered = Math.max(rendered, performance.now()));
  signal?.throwIfAborted();
  await mkdir(dir, { recursive: true });
  try {
    const image = (async () => {
      const H = size.height;
      await columns("image", size.width);
      await rows("render-rows", 0, H, H / 2);
      if (scene.water) await rows("reflect-rows", H >> 1, H, H / 2);
      const disk = await rows<SunIrradiance>("finish-rows", 0, H, H / 2);
      pixelsDone();
      signal?.throwIfAborted();
      const bands = all<Uint8Array>(
        spans(0, H, partsOf(H)).map(([a, b]) => ({ kind: "encode-rgbe", width: size.width, height: H, radiance: memory.radiance, rows: [a, b] }) as const),
      );
      const [pictures, radiance] = await settleAll([encodePictures(memory, req.thumbSize), bands.then((b) => radianceFile(size.width, H, b))]);
      return [...pictures, radiance, sceneFile(stored, sumOf(disk))];
    })();
    const depth = (async () => {
      await columns("depth", depthSize.width);
      await rows("distance-rows", 0, depthSize.height, depthSize.height / 2);
      pixelsDone();
      signal?.throwIfAborted();
      return encodeDepth(memory);
    })();
    const files = (await settleAll([image, depth])).flat();
    const encoded = performance.now();
    signal?.throwIfAborted();
    await writeStoredFiles(dir, files);
    const timings: RenderTimings = { workerStart: started - t0, render: rendered - started, encode: encoded - rendered, writes: performance.now() - encoded };
    return { enhancedPrompt: req.enhancePrompt ? enhancePrompt(scene) : null, timings };
  } finally {
    runner.release?.(task.id);
  }
}

/** The sun's irradiance: the sum of the bands'. */
function sumOf(parts: SunIrradiance[]): SunIrradiance {
  const total: SunIrradiance = [0, 0, 0];
  for (const part of parts) for (let c = 0; c < 3; c++) total[c]! += part[c]!;
  return total;
}

/** [start, end) spans covering y0..n in about `parts` pieces (at least 2 items each). */
function spans(y0: number, n: number, parts: number): [number, number][] {
  const step = Math.max(2, Math.ceil((n - y0) / parts));
  const out: [number, number][] = [];
  for (let a = y0; a < n; a += step) out.push([a, Math.min(n, a + step)]);
  return out;
}

/**
 * Bands ordered by their distance below (then above) the horizon: the distant ground just
 * below it costs the most, the zenith and the nadir the least. Only the order of the
 * jobs changes; every band's pixels are the same whoever renders them, whenever.
 */
function costliestFirst(bands: [number, number][], horizon: number): [number, number][] {
  const cost = ([a, b]: [number, number]) => {
    const mid = (a + b) / 2;
    return mid >= horizon ? mid - horizon : (horizon - mid) * 1.5;
  };
  return [...bands].sort((p, q) => cost(p) - cost(q));
}
