/**
 * A precomputed, coarse version of the terrain's height (a fixed, small number of octaves)
 * sampled bilinearly: what soft terrain shadows read instead of evaluating the noise at
 * every step of every pixel's shadow ray.
 *
 * It is a clipmap: nested square grids centred on the camera, each twice the size of the
 * previous with the same number of cells, so cells grow with distance like the pixel
 * footprint. Level L spans |x|, |z| <= R0 * 2^L; a point uses the finest level holding it.
 * Tiles of TILE x TILE cells are filled on first use, by whichever worker needs them, into
 * shared memory (a tile's values do not depend on who computes it, so two workers filling
 * the same tile at once write the same numbers, and renders stay byte-identical however
 * the work is split). Points beyond the last level evaluate the terrain directly.
 */

/** Cells per tile side. */
const TILE = 16;
const SHIFT = 4;
const NODES = TILE + 1;
/** Half-size of the finest level, metres. */
const R0 = 64;
const INV_R0 = 1 / R0;
/** Levels: the last spans +-131 km, beyond any ground the march reaches. */
const LEVELS = 12;

/** Shared storage of a clipmap (allocated by the coordinating thread, filled by workers). */
export interface ClipmapMemory {
  /** Cells per level side (a multiple of TILE). */
  cells: number;
  /** Float32: every tile's NODES x NODES heights, level by level, tile rows first. */
  heights: SharedArrayBuffer;
  /** Int32 per tile: 1 once its heights are written. */
  ready: SharedArrayBuffer;
}

/** Cells per level side for a panorama width: finer grids for larger images. */
export function clipmapCells(width: number): number {
  const target = width / 16;
  let cells = TILE * 4;
  while (cells < target && cells < 512) cells *= 2;
  return cells;
}

export function allocateClipmap(cells: number): ClipmapMemory {
  const tiles = LEVELS * (cells / TILE) ** 2;
  return { cells, heights: new SharedArrayBuffer(tiles * NODES * NODES * 4), ready: new SharedArrayBuffer(tiles * 4) };
}

export interface HeightClipmap {
  cells: number;
  tilesPerSide: number;
  heights: Float32Array;
  ready: Int32Array;
  /** This thread's memory of tiles seen ready (saves an atomic read per sample). */
  seen: Uint8Array;
  /** The height function the grid holds. */
  height: (x: number, z: number) => number;
}

export function openClipmap(memory: ClipmapMemory, height: (x: number, z: number) => number): HeightClipmap {
  return {
    cells: memory.cells,
    tilesPerSide: memory.cells / TILE,
    heights: new Float32Array(memory.heights),
    ready: new Int32Array(memory.ready),
    seen: new Uint8Array(memory.ready.byteLength / 4),
    height,
  };
}

/** Bilinear height at (x, z). */
export function clipmapHeight(G: HeightClipmap, x: number, z: number): number {
  const ax = x < 0 ? -x : x;
  const az = z < 0 ? -z : z;
  const m = ax > az ? ax : az;
  const level = 32 - Math.clz32((m * INV_R0) | 0);
  if (level >= LEVELS) return G.height(x, z);
  const half = R0 * (1 << level);
  const n = G.cells;
  const scale = n / (2 * half);
  const gx = (x + half) * scale;
  const gz = (z + half) * scale;
  let i = gx | 0;
  let j = gz | 0;
  if (i >= n) i = n - 1;
  if (j >= n) j = n - 1;
  const fx = gx - i;
  const fz = gz - j;
  const tile = (level * G.tilesPerSide + (j >> SHIFT)) * G.tilesPerSide + (i >> SHIFT);
  if (G.seen[tile] === 0) ensureTile(G, tile, level, half);
  const o = tile * NODES * NODES + (j & (TILE - 1)) * NODES + (i & (TILE - 1));
  const h = G.heights;
  const top = h[o]! + (h[o + 1]! - h[o]!) * fx;
  const bottom = h[o + NODES]! + (h[o + NODES + 1]! - h[o + NODES]!) * fx;
  return top + (bottom - top) * fz;
}

function ensureTile(G: HeightClipmap, tile: number, level: number, half: number): void {
  if (Atomics.load(G.ready, tile) === 0) fillTile(G, tile, level, half);
  G.seen[tile] = 1;
}

function fillTile(G: HeightClipmap, tile: number, level: number, half: number): void {
  const perLevel = G.tilesPerSide * G.tilesPerSide;
  const t = tile - level * perLevel;
  const ti = t % G.tilesPerSide;
  const tj = (t / G.tilesPerSide) | 0;
  const cell = (2 * half) / G.cells;
  const base = tile * NODES * NODES;
  for (let b = 0; b < NODES; b++) {
    const z = -half + (tj * TILE + b) * cell;
    for (let a = 0; a < NODES; a++) G.heights[base + b * NODES + a] = G.height(-half + (ti * TILE + a) * cell, z);
  }
  Atomics.store(G.ready, tile, 1);
}
