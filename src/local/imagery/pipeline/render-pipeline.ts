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
 * flushed together. What only drawing reads (render-buffers.ts) is let go of, and collected
 * in every thread, before the image's files are encoded: a render's memory peaks while it
 * draws, never on top of its encoders'.
 */
import { mkdir } from "node:fs/promises";
import { settleAll } from "../../settle-all.ts";
import type { RenderRequest, RenderResult, RenderTimings } from "../contract.ts";
import { enhancePrompt } from "../prompt/enhance-prompt.ts";
import { allocateOutputs, allocateScratch, type RenderOutputs, withoutDrawing } from "./render-buffers.ts";
import { lookParams } from "../render/looks/looks.ts";
import { collectEverywhere } from "./collect-garbage.ts";
import { imageFlatTop, sunDiskRows } from "../scene/prepare-scene.ts";
import type { SceneSpec } from "../scene/scene-spec.ts";
import { finishesInPlace } from "../render/finish-rows.ts";
import type { ImageryJob, ImageryJobResult, RenderTask, RowJobKind, SunIrradiance, TaskGuides } from "./render-jobs.ts";
import { resolveRender } from "./scene-resolution.ts";
import { encodeDepth, encodePictures, radianceFile, sceneFile, writeStoredFiles } from "./skybox-outputs.ts";

/** Runs jobs somewhere (the worker pool). */
export interface JobRunner {
  /** How many jobs can run at once (sets how finely work is split). */
  readonly size: number;
  /** Runs `job`; a job still waiting for a worker when `signal` aborts is dropped (rejects). */
  run(job: ImageryJob, signal?: AbortSignal): Promise<ImageryJobResult>;
  /** Tells workers a task is finished so they drop its cached state. */
  release?(taskId: string): void;
  /** Has every worker collect its garbage; resolves once all have (a render let go of buffers). */
  collect?(): Promise<void>;
  /** Resolves once the workers have started (the time a cold start costs). */
  ready?(): Promise<void>;
}

/** Bands per worker and phase (at least; tall images get bands of about BAND_ROWS rows). */
const RUNNER_PARTS = 6;
const BAND_ROWS = 32;
const MAX_PARTS = 64;

/** Makes task ids unique within the process (workers key their caches by them). */
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
  const outputs = allocateOutputs({ width: size.width, height: size.height, depthWidth: depthSize.width, depthHeight: depthSize.height });
  const id = `${process.pid}-${++taskCounter}`;
  // The last pixel pass to end marks the end of rendering (the depth files encode meanwhile).
  let rendered = started;
  const pixelsDone = () => (rendered = Math.max(rendered, performance.now()));
  signal?.throwIfAborted();
  await mkdir(dir, { recursive: true });
  try {
    const pixels = drawPixels(runner, id, scene, guides, outputs, signal);
    const depth = pixels.depth.then(() => {
      pixelsDone();
      signal?.throwIfAborted();
      return encodeDepth(outputs);
    });
    const image = (async () => {
      const disk = await pixels.image;
      pixelsDone();
      await pixels.depth;
      // Drawing is over: its scratch goes before the files are encoded.
      runner.release?.(id);
      await collectEverywhere(runner);
      signal?.throwIfAborted();
      const H = size.height;
      const bands = settleAll(
        spans(0, H, partsOf(runner, H)).map(
          ([a, b]) =>
            runner.run({ kind: "encode-rgbe", width: size.width, radiance: outputs.radiance, rows: [a, b] }, signal) as Promise<Uint8Array>,
        ),
      );
      const [pictures, radiance] = await settleAll([
        encodePictures(outputs, req.thumbSize),
        bands.then((b) => radianceFile(size.width, H, b)),
      ]);
      return [...pictures, radiance, sceneFile(stored, disk)];
    })();
    const files = (await settleAll([image, depth])).flat();
    const encoded = performance.now();
    signal?.throwIfAborted();
    await writeStoredFiles(dir, files);
    const timings: RenderTimings = {
      workerStart: started - t0,
      render: rendered - started,
      encode: encoded - rendered,
      writes: performance.now() - encoded,
    };
    return { enhancedPrompt: req.enhancePrompt ? enhancePrompt(scene) : null, timings };
  } finally {
    runner.release?.(id);
  }
}

/**
 * Draws the image and the depth pixels into `outputs` with scratch buffers of their own:
 * once both promises settle, nothing but the workers' caches (released by task id) holds
 * the scratch. `image` gives the irradiance of the sun disk the finishing bands report.
 */
function drawPixels(
  runner: JobRunner,
  id: string,
  scene: SceneSpec,
  guides: TaskGuides,
  outputs: RenderOutputs,
  signal?: AbortSignal,
): { image: Promise<SunIrradiance>; depth: Promise<void> } {
  const { width, height, depthWidth, depthHeight } = outputs;
  const top = imageFlatTop(scene, height);
  // Water lies below the horizon, and not on a flat top that stands clear of it.
  const waterEnd = top.dry ? Math.max(height >> 1, top.row) : height;
  const reflectionRows: [number, number] = scene.water ? [height >> 1, waterEnd] : [height, height];
  const plan = {
    finishInPlace: finishesInPlace(scene.look),
    outlines: lookParams(scene.look, scene.softLines).outline > 0,
    reflectionRows,
    sunRows: sunDiskRows(scene, width, height),
    flatTop: top,
  };
  // Jobs are made from the task as it is when they are queued: finishing gets less of it.
  let task: RenderTask = { id, scene, memory: { ...outputs, ...allocateScratch(outputs, plan) }, guides };
  const all = <T>(jobs: ImageryJob[]) => settleAll(jobs.map((job) => runner.run(job, signal) as Promise<T>));
  const columns = (target: "image" | "depth", w: number) =>
    all(spans(0, w, partsOf(runner, w)).map(([x0, x1]) => ({ kind: "march", task, target, x0, x1 }) as const));
  const rows = <T = null>(kind: RowJobKind, y0: number, h: number, horizon: number) =>
    all<T>(costliestFirst(spans(y0, h, partsOf(runner, h - y0)), horizon).map(([a, b]) => ({ kind, task, y0: a, y1: b }) as const));
  const image = (async () => {
    await columns("image", width);
    await rows("render-rows", 0, height, height / 2);
    if (scene.water) await rows("reflect-rows", reflectionRows[0], height, height / 2);
    task = { ...task, memory: withoutDrawing(task.memory) };
    await collectEverywhere(runner);
    return sumOf(await rows<SunIrradiance>("finish-rows", 0, height, height / 2));
  })();
  const depth = (async () => {
    await columns("depth", depthWidth);
    await rows("distance-rows", 0, depthHeight, depthHeight / 2);
  })();
  return { image, depth };
}

/** How many bands a span of n rows (or columns) is cut into. */
function partsOf(runner: JobRunner, n: number): number {
  return Math.max(runner.size * RUNNER_PARTS, Math.min(MAX_PARTS, Math.ceil(n / BAND_ROWS)));
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
