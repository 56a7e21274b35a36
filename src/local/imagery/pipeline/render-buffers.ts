/**
 * The shared memory of one render task: planes (typed views on SharedArrayBuffers, taken
 * from the runner's PlanePool) that workers write in disjoint rows (or columns) in
 * parallel and the coordinating thread reads without copies.
 *
 * It comes in parts: the outputs, what the files are encoded from, and the scratch, which
 * only drawing and finishing read. The render hands the drawing-only scratch back before
 * its files are encoded (radiance.hdr's scanlines then reuse it, see render-pipeline.ts)
 * and everything else once they are. The radiance is kept as the RGBE bytes radiance.hdr
 * stores (4 bytes a pixel, not 12 as floats): the file's precision is all it ever had, and
 * its scanlines are then only run-length encoded.
 */
import { allocateClipmap, clipmapCells } from "../scene/terrain/height-clipmap.ts";
import type { SharedGrids } from "../scene/prepare-scene.ts";
import type { PlanePool } from "./plane-pool.ts";

/** Rows [y0, y1) of a full-width image, one value a pixel: the part of the image a plane needs. */
export interface RowBand<A = Float32Array> {
  y0: number;
  y1: number;
  /** (y1 - y0) x width values. */
  data: A;
}

/** What the files are encoded from. */
export interface RenderOutputs {
  width: number;
  height: number;
  depthWidth: number;
  depthHeight: number;
  /** W x H x 4: linear radiance as RGBE bytes (R, G, B, E a pixel; rendered, then final). */
  radiance: Uint8Array;
  /** W x H x 3: the final image. */
  final: Uint8Array;
  /** Wd x Hd: final distance (metres, SKY_DISTANCE for sky). */
  distance: Float32Array;
  /** Wd x Hd: depth.png values. */
  depth16: Uint16Array;
}

/** What drawing and finishing read. */
export interface RenderScratch {
  /** W x H: ground hit distance per pixel (terrain march), Infinity for none. Drawing only. */
  hit: Float32Array;
  /**
   * 2 x W: each column's skyline from the terrain march (skyline-coverage.ts): the tangent
   * of the highest elevation the ground reaches, then its distance. Drawing only.
   */
  skyline: Float32Array;
  /** Water reflection weights of the rows below the horizon (none without water). Drawing only. */
  reflection: RowBand;
  /** Wd x Hd: ground hit distance at the depth size. */
  depthHit: Float32Array;
  /**
   * W x H x 3: tone-mapped display before the look's finishing. The final image itself
   * when finishing reads each pixel only to write it (the photoreal look): 100 MB less at 8K.
   */
  display: Uint8Array;
  /** W x H: the outline weight of depth edges (stylize.ts), for looks with outlines; else empty. */
  outline: Uint8Array;
  /** Each sky pixel's visible share of the sun disk, over the rows the disk may reach (sun-energy.ts). */
  sunShare: RowBand;
  /** Scene grids the image's workers fill and share. */
  grids: SharedGrids;
}

/** A render task's memory, as the render passes read and write it. */
export interface TaskMemory extends RenderOutputs, RenderScratch {}

export interface OutputSizes {
  width: number;
  height: number;
  depthWidth: number;
  depthHeight: number;
}

export function allocateOutputs(pool: PlanePool, sizes: OutputSizes): RenderOutputs {
  const n = sizes.width * sizes.height;
  const nd = sizes.depthWidth * sizes.depthHeight;
  return { ...sizes, radiance: pool.uint8(n * 4), final: pool.uint8(n * 3), distance: pool.float32(nd), depth16: pool.uint16(nd) };
}

/** What a render's scratch depends on besides its size. */
export interface ScratchPlan {
  /** Whether the display is the final image (finish-rows.ts). */
  finishInPlace: boolean;
  /** Whether the look draws outlines at depth edges. */
  outlines: boolean;
  /** Rows [y0, y1) of the water's reflection weights and of the sun disk's shares (empty when y0 >= y1). */
  reflectionRows: [number, number];
  sunRows: [number, number];
  /** Bytes the hit plane's buffer holds at least: what reuses it once drawing is over. */
  hitCapacity: number;
}

export function allocateScratch(pool: PlanePool, outputs: RenderOutputs, plan: ScratchPlan): RenderScratch {
  const { width, height, depthWidth, depthHeight } = outputs;
  const band = ([y0, y1]: [number, number]): RowBand => ({ y0, y1, data: pool.float32(Math.max(0, y1 - y0) * width) });
  return {
    hit: pool.float32(width * height, plan.hitCapacity),
    skyline: pool.float32(width * 2),
    reflection: band(plan.reflectionRows),
    depthHit: pool.float32(depthWidth * depthHeight),
    display: plan.finishInPlace ? outputs.final : pool.uint8(width * height * 3),
    outline: pool.uint8(plan.outlines ? width * height : 0),
    sunShare: band(plan.sunRows),
    grids: { shadowHeights: allocateClipmap(clipmapCells(width), pool) },
  };
}

/** The planes only drawing reads (hit distances, skyline, water weights): handed back before the files are encoded. */
export function drawingPlanes(m: RenderScratch): ArrayBufferView[] {
  return [m.hit, m.skyline, m.reflection.data];
}

/** The planes of `m` not in drawingPlanes: handed back once the files are encoded. */
export function otherPlanes(m: TaskMemory): ArrayBufferView[] {
  return [m.radiance, m.final, m.distance, m.depth16, m.depthHit, m.display, m.outline, m.sunShare.data, m.grids.shadowHeights.heights, m.grids.shadowHeights.ready];
}

/** Index of pixel (x, y) of a `width`-wide image in `band`, -1 when the band does not cover row y. */
export function bandIndex(band: RowBand<unknown>, width: number, x: number, y: number): number {
  return y >= band.y0 && y < band.y1 ? (y - band.y0) * width + x : -1;
}
