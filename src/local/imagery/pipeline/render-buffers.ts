/**
 * The shared memory of one render task. Workers write disjoint rows (or columns) of these
 * SharedArrayBuffers in parallel; the coordinating thread reads the results without copies.
 */

import { allocateClipmap, clipmapCells } from "../scene/height-clipmap.ts";
import type { SharedGrids } from "../scene/prepare-scene.ts";

export interface TaskMemory {
  width: number;
  height: number;
  depthWidth: number;
  depthHeight: number;
  /** Float32 W x H: ground hit distance per pixel (terrain march), Infinity for none. */
  hit: SharedArrayBuffer;
  /** Float32 W x H x 3: linear radiance (rendered, then final). */
  radiance: SharedArrayBuffer;
  /** Float32 W x H: water reflection weight; minus the share of the sun disk on sky pixels (sun-energy.ts); 0 elsewhere. */
  aux: SharedArrayBuffer;
  /** Uint8 W x H x 3: tone-mapped display before the look's finishing. */
  display: SharedArrayBuffer;
  /**
   * Uint8 W x H x 3: the final image. The display itself when finishing reads each pixel
   * only to write it (the photoreal look): 100 MB less at 8K.
   */
  final: SharedArrayBuffer;
  /** Float32 Wd x Hd: ground hit distance at the depth size. */
  depthHit: SharedArrayBuffer;
  /** Float32 Wd x Hd: final distance (metres, SKY_DISTANCE for sky). */
  distance: SharedArrayBuffer;
  /** Uint16 Wd x Hd: depth.png values. */
  depth16: SharedArrayBuffer;
  /** Scene grids the image's workers fill and share. */
  grids: SharedGrids;
}

export function allocateTaskMemory(width: number, height: number, depthWidth: number, depthHeight: number, finishInPlace: boolean): TaskMemory {
  const n = width * height;
  const nd = depthWidth * depthHeight;
  const display = new SharedArrayBuffer(n * 3);
  return {
    width,
    height,
    depthWidth,
    depthHeight,
    hit: new SharedArrayBuffer(n * 4),
    radiance: new SharedArrayBuffer(n * 12),
    aux: new SharedArrayBuffer(n * 4),
    display,
    final: finishInPlace ? display : new SharedArrayBuffer(n * 3),
    depthHit: new SharedArrayBuffer(nd * 4),
    distance: new SharedArrayBuffer(nd * 4),
    depth16: new SharedArrayBuffer(nd * 2),
    grids: { shadowHeights: allocateClipmap(clipmapCells(width)) },
  };
}

/** Typed views of a TaskMemory. */
export interface TaskViews {
  hit: Float32Array;
  radiance: Float32Array;
  aux: Float32Array;
  display: Uint8Array;
  final: Uint8Array;
  depthHit: Float32Array;
  distance: Float32Array;
  depth16: Uint16Array;
}

export function taskViews(m: TaskMemory): TaskViews {
  return {
    hit: new Float32Array(m.hit),
    radiance: new Float32Array(m.radiance),
    aux: new Float32Array(m.aux),
    display: new Uint8Array(m.display),
    final: new Uint8Array(m.final),
    depthHit: new Float32Array(m.depthHit),
    distance: new Float32Array(m.distance),
    depth16: new Uint16Array(m.depth16),
  };
}
