/**
 * A city of box buildings on a grid of lots around the camera (which stands on a small
 * hill in a park): a downtown cluster of towers in one direction, low blocks elsewhere.
 * Rays are traced exactly through the lot grid (2D DDA) with a ray/box test per built lot.
 */
import { hash3 } from "../../math/noise.ts";
import type { SceneSpec } from "../scene-spec.ts";

export const LOT = 55;

export interface CityParams {
  on: boolean;
  /** Lots per side; lot (i, j) spans x in [(i - n/2) * LOT, ...). */
  n: number;
  heights: Float32Array;
  /** Building footprint inside its lot: x0, x1, z0, z1 offsets (m) per lot. */
  boxes: Float32Array;
  maxHeight: number;
  seed: number;
}

/** Hit details of the last `cityHit`: face normal axis (0 x, 1 y, 2 z), sign, lot index. */
export const cityFace = { axis: 0, sign: 1, lot: 0 };

export function prepareCity(scene: SceneSpec, radius: number): CityParams {
  const city = scene.city;
  if (!city) return { on: false, n: 0, heights: new Float32Array(0), boxes: new Float32Array(0), maxHeight: 0, seed: 0 };
  const n = Math.ceil((radius * 2) / LOT);
  const heights = new Float32Array(n * n);
  const boxes = new Float32Array(n * n * 4);
  const seed = scene.seed;
  // Downtown lies ahead-ish of the camera (within 60 degrees of -Z), about a kilometre away.
  const dAz = (((seed % 120) - 60) * Math.PI) / 180;
  const dcx = Math.sin(dAz) * 1100;
  const dcz = -Math.cos(dAz) * 1100;
  let maxHeight = 0;
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const cx = (i - n / 2 + 0.5) * LOT;
      const cz = (j - n / 2 + 0.5) * LOT;
      const r = Math.hypot(cx, cz);
      const k = j * n + i;
      const h1 = hash3(i, j, 1, seed);
      // The park around the camera, thinning out toward the edge of the city.
      const edge = Math.max(0, Math.min(1, (radius - r) / (radius * 0.35)));
      if (r < 330 || r > radius || hash3(i, j, 2, seed) > city.density * edge) continue;
      const dt = Math.hypot(cx - dcx, cz - dcz);
      const tower = city.height * Math.exp(-((dt / 900) ** 2)) * (0.3 + 0.7 * h1 * h1);
      const midRise = 45 * Math.exp(-((dt / 2200) ** 2)) * hash3(i, j, 8, seed);
      const h = 10 + 24 * hash3(i, j, 3, seed) ** 2 + midRise + tower;
      heights[k] = h;
      maxHeight = Math.max(maxHeight, h);
      const inset = 7 + 8 * hash3(i, j, 4, seed);
      boxes[k * 4] = cx - LOT / 2 + inset;
      boxes[k * 4 + 1] = cx + LOT / 2 - inset * (0.6 + 0.8 * hash3(i, j, 5, seed));
      boxes[k * 4 + 2] = cz - LOT / 2 + inset;
      boxes[k * 4 + 3] = cz + LOT / 2 - inset * (0.6 + 0.8 * hash3(i, j, 6, seed));
    }
  }
  return { on: true, n, heights, boxes, maxHeight, seed };
}

/**
 * Distance along the unit ray from (0, oy, 0) to the first building, or Infinity; stops
 * at tMax. Sets `cityFace` on a hit.
 */
export function cityHit(C: CityParams, oy: number, dx: number, dy: number, dz: number, tMax: number): number {
  if (!C.on) return Infinity;
  const half = (C.n / 2) * LOT;
  let ix = Math.floor(half / LOT);
  let iz = ix;
  const stepX = dx > 0 ? 1 : -1;
  const stepZ = dz > 0 ? 1 : -1;
  const invX = dx !== 0 ? 1 / dx : 1e30;
  const invZ = dz !== 0 ? 1 / dz : 1e30;
  let tx = ((ix + (dx > 0 ? 1 : 0)) * LOT - half) * invX;
  let tz = ((iz + (dz > 0 ? 1 : 0)) * LOT - half) * invZ;
  const dtx = LOT * Math.abs(invX);
  const dtz = LOT * Math.abs(invZ);
  let t = 0;
  while (t < tMax) {
    if (ix < 0 || iz < 0 || ix >= C.n || iz >= C.n) return Infinity;
    const y = oy + dy * t;
    if (dy >= 0 && y > C.maxHeight) return Infinity;
    if (y < 0) return Infinity;
    const k = iz * C.n + ix;
    const h = C.heights[k]!;
    if (h > 0) {
      const hit = boxHit(C, k, h, oy, dx, dy, dz);
      if (hit < tMax) return hit;
    }
    if (tx < tz) {
      t = tx;
      tx += dtx;
      ix += stepX;
    } else {
      t = tz;
      tz += dtz;
      iz += stepZ;
    }
  }
  return Infinity;
}

/** The ray's entry and exit distances through a box's slabs so far, and the face it entered by. */
const slab = { near: 0, far: Infinity, axis: 0, sign: 1 };

/** Narrows `slab` by the slab between offsets lo and hi (from the ray's origin) along `axis`, the ray's component there being d. */
function clipSlab(lo: number, hi: number, d: number, axis: number): void {
  const inv = 1 / d;
  let t0 = lo * inv;
  let t1 = hi * inv;
  if (t0 > t1) {
    const swap = t0;
    t0 = t1;
    t1 = swap;
  }
  if (t0 > slab.near) {
    slab.near = t0;
    slab.axis = axis;
    slab.sign = d > 0 ? -1 : 1;
  }
  if (t1 < slab.far) slab.far = t1;
}

function boxHit(C: CityParams, k: number, h: number, oy: number, dx: number, dy: number, dz: number): number {
  const b = C.boxes;
  slab.near = 0;
  slab.far = Infinity;
  slab.axis = 0;
  slab.sign = 1;
  clipSlab(b[k * 4]!, b[k * 4 + 1]!, dx, 0);
  clipSlab(b[k * 4 + 2]!, b[k * 4 + 3]!, dz, 2);
  clipSlab(-oy, h - oy, dy, 1);
  if (slab.near > slab.far || slab.far <= 0) return Infinity;
  cityFace.axis = slab.axis;
  cityFace.sign = slab.sign;
  cityFace.lot = k;
  return slab.near;
}
