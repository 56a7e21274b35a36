/**
 * The shared memory of one render task. Workers write disjoint rows (or columns) of these
 * SharedArrayBuffers in parallel; the coordinating thread reads the results without copies.
 *
 * It comes in two parts so that a render never holds more than it needs (an 8K render is
 * the largest thing the local service does): the outputs, what the files are encoded from,
 * and the scratch, what only drawing reads, which the render lets go of (and every thread
 * collects) before its files are encoded. The radiance is kept as the RGBE bytes
 * radiance.hdr stores (4 bytes a pixel, not 12 as floats): the file's precision is all it
 * ever had, and its scanlines are then only run-length encoded.
 */

import { allocateClipmap, clipmapCells } from "../scene/height-clipmap.ts";
import type { SharedGrids } from "../scene/prepare-scene.ts";

/** Rows [y0, y1) of a full-width image, one value a pixel: the part of the image a buffer needs. */
export interface RowBand<B = SharedArrayBuffer> {
  y0: number;
  y1: number;
  /** Float32, (y1 - y0) x width. */
  data: B;
}

/** What the files are encoded from. */
export interface RenderOutputs {
  width: number;
  height: number;
  depthWidth: number;
  depthHeight: number;
  /** Uint8 W x H x 4: linear radiance as RGBE bytes (R, G, B, E a pixel; rendered, then final). */
  radiance: SharedArrayBuffer;
  /** Uint8 W x H x 3: the final image. */
  final: SharedArrayBuffer;
  /** Float32 Wd x Hd: final distance (metres, SKY_DISTANCE for sky). */
  distance: SharedArrayBuffer;
  /** Uint16 Wd x Hd: depth.png values. */
  depth16: SharedArrayBuffer;
}

/** What only drawing reads. */
export interface RenderScratch {
  /**
   * Uint8 W x H x 3: tone-mapped display before the look's finishing. The final image
   * itself when finishing reads each pixel only to write it (the photoreal look): 100 MB
   * less at 8K.
   */
  display: SharedArrayBuffer;
  /** Float32 W x H: ground hit distance per pixel (terrain march), Infinity for none. */
  hit: SharedArrayBuffer;
  /** Water reflection weights of the rows below the horizon (none without water). */
  reflection: RowBand;
  /** Each sky pixel's visible share of the sun disk, over the rows the disk may reach (sun-energy.ts). */
  sunShare: RowBand;
  /** Float32 Wd x Hd: ground hit distance at the depth size. */
  depthHit: SharedArrayBuffer;
  /** Scene grids the image's workers fill and share. */
  grids: SharedGrids;
}

export interface TaskMemory extends RenderOutputs, RenderScratch {}

export interface OutputSizes {
  width: number;
  height: number;
  depthWidth: number;
  depthHeight: number;
}

export function allocateOutputs(sizes: OutputSizes): RenderOutputs {
  const n = sizes.width * sizes.height;
  const nd = sizes.depthWidth * sizes.depthHeight;
  return {
    ...sizes,
    radiance: new SharedArrayBuffer(n * 4),
    final: new SharedArrayBuffer(n * 3),
    distance: new SharedArrayBuffer(nd * 4),
    depth16: new SharedArrayBuffer(nd * 2),
  };
}

/**
 * `reflectionRows` and `sunRows`: the rows [y0, y1) each band covers (empty when y0 >= y1);
 * `finishInPlace`: whether the display is the final image (finish-rows.ts).
 */
export function allocateScratch(outputs: RenderOutputs, finishInPlace: boolean, reflectionRows: [number, number], sunRows: [number, number]): RenderScratch {
  const { width, height, depthWidth, depthHeight } = outputs;
  const band = ([y0, y1]: [number, number]): RowBand => ({ y0, y1, data: new SharedArrayBuffer(Math.max(0, y1 - y0) * width * 4) });
  return {
    display: finishInPlace ? outputs.final : new SharedArrayBuffer(width * height * 3),
    hit: new SharedArrayBuffer(width * height * 4),
    reflection: band(reflectionRows),
    sunShare: band(sunRows),
    depthHit: new SharedArrayBuffer(depthWidth * depthHeight * 4),
    grids: { shadowHeights: allocateClipmap(clipmapCells(width)) },
  };
}

/** Typed views of a TaskMemory. */
export interface TaskViews {
  hit: Float32Array;
  radiance: Uint8Array;
  reflection: RowBand<Float32Array>;
  sunShare: RowBand<Float32Array>;
  display: Uint8Array;
  final: Uint8Array;
  depthHit: Float32Array;
  distance: Float32Array;
  depth16: Uint16Array;
}

export function taskViews(m: TaskMemory): TaskViews {
  const band = (b: RowBand): RowBand<Float32Array> => ({ y0: b.y0, y1: b.y1, data: new Float32Array(b.data) });
  return {
    hit: new Float32Array(m.hit),
    radiance: new Uint8Array(m.radiance),
    reflection: band(m.reflection),
    sunShare: band(m.sunShare),
    display: new Uint8Array(m.display),
    final: new Uint8Array(m.final),
    depthHit: new Float32Array(m.depthHit),
    distance: new Float32Array(m.distance),
    depth16: new Uint16Array(m.depth16),
  };
}

/** Index of pixel (x, y) of a `width`-wide image in `band`, -1 when the band does not cover row y. */
export function bandIndex(band: RowBand<unknown>, width: number, x: number, y: number): number {
  return y >= band.y0 && y < band.y1 ? (y - band.y0) * width + x : -1;
}
