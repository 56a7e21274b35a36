/**
 * Streaming resampling of an equirectangular float image, one output row at a time, so a
 * 16K export never holds a full float copy of its source or of itself.
 *
 * Separable tent filter of radius max(1, source / output) source pixels: bilinear when
 * enlarging, an area-weighted (anti-aliasing) average when shrinking. Columns wrap around
 * (u = 0 meets u = 1); rows clamp at the poles.
 */

/** A source read once, top to bottom. */
export interface RowSource {
  readonly width: number;
  readonly height: number;
  /** Floats per pixel. */
  readonly channels: number;
  /** The next row (width * channels floats); may reuse its buffer between calls. */
  next(): Float32Array;
}

interface Taps {
  /** Start of output i's taps in `index` / `weight`; length outN + 1. */
  start: Int32Array;
  index: Int32Array;
  weight: Float32Array;
}

function tentTaps(sourceN: number, outN: number, wrap: boolean): Taps {
  const scale = sourceN / outN;
  const radius = Math.max(1, scale);
  const start = new Int32Array(outN + 1);
  const index: number[] = [];
  const weight: number[] = [];
  for (let o = 0; o < outN; o++) {
    start[o] = index.length;
    const centre = (o + 0.5) * scale - 0.5;
    let sum = 0;
    for (let i = Math.ceil(centre - radius); i <= Math.floor(centre + radius); i++) {
      const w = 1 - Math.abs(i - centre) / radius;
      if (w <= 1e-9) continue;
      index.push(wrap ? ((i % sourceN) + sourceN) % sourceN : Math.min(Math.max(i, 0), sourceN - 1));
      weight.push(w);
      sum += w;
    }
    for (let k = start[o]!; k < index.length; k++) weight[k]! /= sum;
  }
  start[outN] = index.length;
  return { start, index: Int32Array.from(index), weight: Float32Array.from(weight) };
}

/**
 * Yields the `width` x `height` resampling of `source`, row by row. The yielded array is
 * reused: consume it before asking for the next row.
 */
export function* resampleRows(source: RowSource, width: number, height: number): Generator<Float32Array> {
  if (source.width === width && source.height === height) {
    for (let y = 0; y < height; y++) yield source.next();
    return;
  }
  const ch = source.channels;
  const across = tentTaps(source.width, width, true);
  const down = tentTaps(source.height, height, false);
  /** Horizontally resampled source rows still needed, by source row index. */
  const rows = new Map<number, Float32Array>();
  let read = 0;
  const out = new Float32Array(width * ch);
  for (let y = 0; y < height; y++) {
    const first = down.start[y]!;
    const end = down.start[y + 1]!;
    let lowest = Infinity;
    let highest = -1;
    for (let k = first; k < end; k++) {
      lowest = Math.min(lowest, down.index[k]!);
      highest = Math.max(highest, down.index[k]!);
    }
    for (const key of rows.keys()) if (key < lowest) rows.delete(key);
    while (read <= highest) {
      const row = source.next();
      if (read >= lowest) rows.set(read, resampleAcross(row, ch, across, width));
      read++;
    }
    out.fill(0);
    for (let k = first; k < end; k++) {
      const row = rows.get(down.index[k]!)!;
      const w = down.weight[k]!;
      for (let i = 0; i < out.length; i++) out[i]! += row[i]! * w;
    }
    yield out;
  }
}

function resampleAcross(row: Float32Array, ch: number, taps: Taps, width: number): Float32Array {
  const out = new Float32Array(width * ch);
  for (let x = 0; x < width; x++) {
    for (let k = taps.start[x]!; k < taps.start[x + 1]!; k++) {
      const s = taps.index[k]! * ch;
      const w = taps.weight[k]!;
      for (let c = 0; c < ch; c++) out[x * ch + c]! += row[s + c]! * w;
    }
  }
  return out;
}
