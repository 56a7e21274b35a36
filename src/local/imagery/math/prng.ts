/**
 * Seeded pseudo-random numbers. Every random choice of the renderer goes through these so
 * that an identical request renders identical bytes (no Math.random, no clock).
 */

/** A 32-bit integer hash (lowbias32), used to derive independent sub-seeds. */
export function hash32(n: number): number {
  let h = n >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Hash of a string (FNV-1a then mixed), for seeding from words. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return hash32(h);
}

/** A small deterministic generator (mulberry32) with helpers for choices. */
export class Rng {
  private _state: number;

  constructor(seed: number) {
    this._state = hash32(seed ^ 0x9e3779b9) || 1;
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this._state = (this._state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform in [min, max). */
  range(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }
}
