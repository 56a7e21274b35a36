/**
 * The units of work of a render, as plain messages (what the pool posts to its workers)
 * and the code that runs one. Every render job names its task (scene + shared memory);
 * a worker prepares each task once and caches it.
 *
 * A render is: "march" (columns, image and depth sizes) -> "render-rows" -> "reflect-rows"
 * (only with water) -> "finish-rows", plus "distance-rows" at the depth size; then
 * "encode-rgbe" jobs run-length encode bands of the final radiance into the scanlines of
 * radiance.hdr.
 */
import type { ExportRequest, ExportResult } from "../contract.ts";
import { distanceRows, type KeptDistances } from "../render/distance-rows.ts";
import { editActive, editOverlay, type EditGuide, editWeight } from "../inputs/edit.ts";
import { finishRows, type Overlay } from "../render/finish-rows.ts";
import { rgbeScanlines } from "../formats/rgbe.ts";
import { panoOverlay, type PanoGuide } from "../inputs/image-to-pano.ts";
import { setNoiseSeed } from "../math/noise.ts";
import { type PreparedScene, prepareScene } from "../scene/prepare-scene.ts";
import { reflectRows } from "../render/reflect-rows.ts";
import { initGuide, type InitGuide } from "../inputs/remix.ts";
import { type TaskMemory, taskViews } from "./render-buffers.ts";
import { type ActiveRegion, type RadianceGuide, renderRows } from "../render/render-rows.ts";
import type { SceneSpec } from "../scene/scene-spec.ts";
import { marchColumns } from "../scene/terrain/terrain-march.ts";

/** Images that steer a render, in shared memory. */
export interface TaskGuides {
  init?: InitGuide;
  edit?: EditGuide;
  pano?: PanoGuide;
}

export interface RenderTask {
  /** Unique per render (worker caches are keyed by it). */
  id: string;
  scene: SceneSpec;
  memory: TaskMemory;
  guides: TaskGuides;
}

export type RowJobKind = "render-rows" | "reflect-rows" | "finish-rows" | "distance-rows";

export type ImageryJob =
  | { kind: "march"; task: RenderTask; target: "image" | "depth"; x0: number; x1: number }
  | { kind: RowJobKind; task: RenderTask; y0: number; y1: number }
  /** The scanlines of radiance.hdr for rows [y0, y1) of a render's radiance (RGBE bytes, render-buffers.ts). */
  | { kind: "encode-rgbe"; width: number; radiance: SharedArrayBuffer; rows: [number, number] }
  | { kind: "export"; request: ExportRequest };

/** A finish-rows job's answer: the irradiance (linear RGB) of the sun disk in its rows. */
export type SunIrradiance = [number, number, number];

export type ImageryJobResult = Uint8Array | ExportResult | SunIrradiance | null;

interface PreparedTask {
  image: PreparedScene;
  depth: PreparedScene;
  guide?: RadianceGuide;
  overlay?: Overlay;
  active?: ActiveRegion;
  kept?: KeptDistances;
}

/**
 * This worker thread's prepared tasks, by task id: module state on purpose, since a worker
 * is the unit that prepares a task once and runs many of its jobs.
 */
const cache = new Map<string, PreparedTask>();

function prepared(task: RenderTask): PreparedTask {
  let p = cache.get(task.id);
  if (!p) {
    const m = task.memory;
    const image = prepareScene(task.scene, m.width, m.height, m.grids);
    const { init, edit, pano } = task.guides;
    p = {
      image,
      depth: prepareScene(task.scene, m.depthWidth, m.depthHeight),
      guide: init ? initGuide(init, image) : undefined,
      overlay: edit ? editOverlay(edit, m.width, m.height) : pano ? panoOverlay(pano, image) : undefined,
      active: edit ? (dx, dy, dz) => editActive(edit, dx, dy, dz) : undefined,
      kept: edit ? { weight: (dx, dy, dz) => editWeight(edit, dx, dy, dz), source: new Float32Array(edit.sourceDistance) } : undefined,
    };
    cache.set(task.id, p);
    // Keep only the most recent few tasks.
    while (cache.size > 3) cache.delete(cache.keys().next().value!);
  }
  setNoiseSeed(task.scene.seed);
  return p;
}

/** Forgets a finished task's cached preparation (optional; the cache is small anyway). */
export function forgetTask(id: string): void {
  cache.delete(id);
}

/** Runs one job in the current thread. */
export async function runJob(job: ImageryJob): Promise<ImageryJobResult> {
  switch (job.kind) {
    case "encode-rgbe":
      return rgbeScanlines(job.width, new Uint8Array(job.radiance), job.rows[0], job.rows[1]);
    case "export":
      return runExport(job.request);
    default:
      return runRenderJob(job);
  }
}

/**
 * A job of a render task. The views are made from the job's own memory, never cached with
 * the task: a render gives its later jobs less of it (render-buffers.ts `withoutDrawing`),
 * and what a worker cached would keep the rest alive.
 */
function runRenderJob(job: Extract<ImageryJob, { task: RenderTask }>): ImageryJobResult {
  const p = prepared(job.task);
  const m = job.task.memory;
  const v = taskViews(m);
  switch (job.kind) {
    case "march":
      if (job.target === "image") marchColumns(p.image.terrain, m.width, m.height, job.x0, job.x1, v.hit.data, v.skyline, true);
      else marchColumns(p.depth.terrain, m.depthWidth, m.depthHeight, job.x0, job.x1, v.depthHit);
      return null;
    case "render-rows":
      renderRows(p.image, v, job.y0, job.y1, p.guide, p.active);
      return null;
    case "reflect-rows":
      reflectRows(p.image, v, job.y0, job.y1);
      return null;
    case "finish-rows":
      return finishRows(p.image, v, job.y0, job.y1, p.overlay);
    case "distance-rows":
      distanceRows(p.depth, v, job.y0, job.y1, p.kept);
      return null;
  }
}

/** The exporters load on first use: a worker that only renders never loads their modules. */
async function runExport(request: ExportRequest): Promise<ExportResult> {
  const { exportSkybox } = await import("../export/export-skybox.ts");
  return exportSkybox(request);
}
