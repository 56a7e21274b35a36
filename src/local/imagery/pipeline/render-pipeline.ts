/**
 * One generation as a set of parallel jobs: column marches at image and depth size, then
 * row bands of rendering, water reflection and finishing (image) and of distances
 * (depth), then the RGBE encoding and the files. Only coordination happens on the
 * calling thread; every heavy step is a job for the runner (the worker pool).
 */
import type { RenderRequest, RenderResult } from "../contract.ts";
import { enhancePrompt } from "../prompt/enhance-prompt.ts";
import { allocateTaskMemory } from "./render-buffers.ts";
import type { ImageryJob, ImageryJobResult, RenderTask, RowJobKind } from "./render-jobs.ts";
import { resolveRender } from "./scene-resolution.ts";
import { writeSkyboxFiles } from "./skybox-outputs.ts";

/** Runs jobs somewhere (the worker pool, or the current thread in `inlineRunner`). */
export interface JobRunner {
  /** How many jobs can run at once (sets how finely work is split). */
  readonly size: number;
  run(job: ImageryJob): Promise<ImageryJobResult>;
  /** Tells workers a task is finished so they drop its cached state. */
  release?(taskId: string): void;
}

let taskCounter = 0;

export async function renderSkybox(runner: JobRunner, req: RenderRequest, dir: string): Promise<RenderResult> {
  const { scene, guides, stored } = await resolveRender(req);
  const { size, depthSize } = req;
  const memory = allocateTaskMemory(size.width, size.height, depthSize.width, depthSize.height);
  const task: RenderTask = { id: `${process.pid}-${++taskCounter}`, scene, memory, guides };
  const parts = Math.max(1, runner.size) * 6;
  const columns = (target: "image" | "depth", width: number): Promise<unknown> =>
    Promise.all(spans(width, parts).map(([x0, x1]) => runner.run({ kind: "march", task, target, x0, x1 })));
  const rows = (kind: RowJobKind, y0: number, height: number): Promise<unknown> =>
    Promise.all(spans(height - y0, parts).map(([a, b]) => runner.run({ kind, task, y0: y0 + a, y1: y0 + b })));
  try {
    const image = (async () => {
      await columns("image", size.width);
      await rows("render-rows", 0, size.height);
      if (scene.water) await rows("reflect-rows", size.height >> 1, size.height);
      await rows("finish-rows", 0, size.height);
    })();
    const depth = (async () => {
      await columns("depth", depthSize.width);
      await rows("distance-rows", 0, depthSize.height);
    })();
    await Promise.all([image, depth]);
    const hdr = runner.run({ kind: "encode-rgbe", width: size.width, height: size.height, radiance: memory.radiance }) as Promise<Uint8Array>;
    await writeSkyboxFiles(dir, memory, req.thumbSize, hdr, stored);
  } finally {
    runner.release?.(task.id);
  }
  return { enhancedPrompt: req.enhancePrompt ? enhancePrompt(scene) : null };
}

/** [start, end) spans covering 0..n in about `parts` pieces (at least 2 items each). */
function spans(n: number, parts: number): [number, number][] {
  const step = Math.max(2, Math.ceil(n / parts));
  const out: [number, number][] = [];
  for (let a = 0; a < n; a += step) out.push([a, Math.min(n, a + step)]);
  return out;
}
