/**
 * The shared memory of one render task. Workers write disjoint rows (or columns) of these
 * SharedArrayBuffers in parallel; the coordinating thread reads the results without copies.
 *
 * It comes in parts so that a render never holds more than it needs (an 8K render is the
 * largest thing the local service does): the outputs, what the files are encoded from, and
 * the scratch, which the render lets go of (and every thread collects) in two steps: what
 * only drawing reads before finishing (`withoutDrawing`), the rest before its files are
 * encoded. The radiance is kept as the RGBE bytes radiance.hdr stores (4 bytes a pixel,
 * not 12 as floats): the file's precision is all it ever had, and its scanlines are then
 * only run-length encoded.
 */
import { allocateClipmap, clipmapCells } from "../scene/terrain/height-clipmap.ts";
import type { SharedGrids } from "../scene/prepare-scene.ts";
import { type FlatTop, NO_HIT } from "../scene/terrain/terrain-march.ts";

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

/**
 * Ground hit distances (terrain march), Infinity for none: per pixel in the rows above the
 * camera's flat top, one a row below (the same in every column there: terrain-march.ts
 * `flatTop`), which leaves a third of the image's rows out of the buffer.
 */
export interface GroundHits<B = SharedArrayBuffer> {
  /**
   * Float32, `row` x width: rows [0, row), 0 for none (a hit is never 0 there): the march
   * leaves the sky unwritten (terrain-march.ts `sparse`), so rows of sky cost no memory.
   */
  data: B;
  /** The first flat-top row (the image's height: none). */
  row: number;
  /** Float32 per image row: the distance of each flat-top row. */
  flat: B;
}

/** What drawing and finishing read. */
export interface RenderScratch {
  /** The image's ground hit distances. Drawing only. */
  hit: GroundHits;
  /**
   * Float32 2 x W: each column's skyline from the terrain march (skyline-coverage.ts): the
   * tangent of the highest elevation the ground reaches, then its distance. Drawing only.
   */
  skyline: SharedArrayBuffer;
  /** Water reflection weights of the rows below the horizon (none without water). Drawing only. */
  reflection: RowBand;
  /** Float32 Wd x Hd: ground hit distance at the depth size. */
  depthHit: SharedArrayBuffer;
  /**
   * Uint8 W x H x 3: tone-mapped display before the look's finishing. The final image
   * itself when finishing reads each pixel only to write it (the photoreal look): 100 MB
   * less at 8K.
   */
  display: SharedArrayBuffer;
  /** Uint8 W x H: the outline weight of depth edges (stylize.ts), for looks with outlines; else empty. */
  outline: SharedArrayBuffer;
  /** Each sky pixel's visible share of the sun disk, over the rows the disk may reach (sun-energy.ts). */
  sunShare: RowBand;
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

/** What a render's scratch depends on besides its size. */
export interface ScratchPlan {
  /** Whether the display is the final image (finish-rows.ts). */
  finishInPlace: boolean;
  /** Whether the look draws outlines at depth edges. */
  outlines: boolean;
  /** Rows [y0, y1) of the water's reflection weights and of the sun disk's shares (empty when y0 >= y1). */
  reflectionRows: [number, number];
  sunRows: [number, number];
  /** The camera's flat top in the image (terrain-march.ts). */
  flatTop: FlatTop;
}

export function allocateScratch(outputs: RenderOutputs, plan: ScratchPlan): RenderScratch {
  const { width, height, depthWidth, depthHeight } = outputs;
  const band = ([y0, y1]: [number, number]): RowBand => ({ y0, y1, data: new SharedArrayBuffer(Math.max(0, y1 - y0) * width * 4) });
  return {
    hit: groundHits(width, plan.flatTop),
    skyline: new SharedArrayBuffer(width * 2 * 4),
    reflection: band(plan.reflectionRows),
    depthHit: new SharedArrayBuffer(depthWidth * depthHeight * 4),
    display: plan.finishInPlace ? outputs.final : new SharedArrayBuffer(width * height * 3),
    outline: new SharedArrayBuffer(plan.outlines ? width * height : 0),
    sunShare: band(plan.sunRows),
    grids: { shadowHeights: allocateClipmap(clipmapCells(width)) },
  };
}

function groundHits(width: number, top: FlatTop): GroundHits {
  const flat = new SharedArrayBuffer(top.distances.byteLength);
  new Float32Array(flat).set(top.distances);
  return { data: new SharedArrayBuffer(top.row * width * 4), row: top.row, flat };
}

/**
 * The memory finishing jobs get: without the buffers only drawing reads (hit distances and
 * water weights, about 100 MB at 8K), so that once the drawing jobs are gone nothing holds them.
 */
export function withoutDrawing(m: TaskMemory): TaskMemory {
  return {
    ...m,
    hit: { data: new SharedArrayBuffer(0), row: 0, flat: new SharedArrayBuffer(0) },
    skyline: new SharedArrayBuffer(0),
    reflection: { y0: m.height, y1: m.height, data: new SharedArrayBuffer(0) },
  };
}

/** Typed views of a TaskMemory. */
export interface TaskViews {
  hit: GroundHits<Float32Array>;
  skyline: Float32Array;
  radiance: Uint8Array;
  reflection: RowBand<Float32Array>;
  sunShare: RowBand<Float32Array>;
  outline: Uint8Array;
  display: Uint8Array;
  final: Uint8Array;
  depthHit: Float32Array;
  distance: Float32Array;
  depth16: Uint16Array;
}

export function taskViews(m: TaskMemory): TaskViews {
  const band = (b: RowBand): RowBand<Float32Array> => ({ y0: b.y0, y1: b.y1, data: new Float32Array(b.data) });
  return {
    hit: { data: new Float32Array(m.hit.data), row: m.hit.row, flat: new Float32Array(m.hit.flat) },
    skyline: new Float32Array(m.skyline),
    radiance: new Uint8Array(m.radiance),
    reflection: band(m.reflection),
    sunShare: band(m.sunShare),
    outline: new Uint8Array(m.outline),
    display: new Uint8Array(m.display),
    final: new Uint8Array(m.final),
    depthHit: new Float32Array(m.depthHit),
    distance: new Float32Array(m.distance),
    depth16: new Uint16Array(m.depth16),
  };
}

/** The ground hit distance of pixel (x, y), i = y * width + x. */
export function hitAt(hits: GroundHits<Float32Array>, i: number, y: number): number {
  if (y >= hits.row) return hits.flat[y]!;
  const t = hits.data[i]!;
  return t > 0 ? t : NO_HIT;
}

/** Index of pixel (x, y) of a `width`-wide image in `band`, -1 when the band does not cover row y. */
export function bandIndex(band: RowBand<unknown>, width: number, x: number, y: number): number {
  return y >= band.y0 && y < band.y1 ? (y - band.y0) * width + x : -1;
}
