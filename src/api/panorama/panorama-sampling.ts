/**
 * Bilinear reads of a grid of samples over an equirectangular panorama (top row first,
 * `channels` interleaved values a pixel), wrapping around horizontally (u = 0 meets u = 1)
 * and clamping at the poles; pixel i's centre is at (i + 0.5) / size
 * (panorama-directions.ts). Every panorama read goes through here: depth grids in the GLB
 * export and the browser-built backdrop, 8-bit panoramas in the cube-map and video
 * exports, the renderer's radiance in its water reflections.
 */

/** The four samples of a read: columns x0 and x1, rows y0 and y1, and the weights of x1 and y1. */
export interface WrappedTaps {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  tx: number;
  ty: number;
}

/** Locates the read at (u, v) of a width x height grid into `out` (returned). */
export function wrappedTaps(width: number, height: number, u: number, v: number, out: WrappedTaps): WrappedTaps {
  const fx = u * width - 0.5;
  const fy = Math.min(Math.max(v * height - 0.5, 0), height - 1);
  const x = Math.floor(fx);
  const y = Math.floor(fy);
  out.tx = fx - x;
  out.ty = fy - y;
  out.x0 = ((x % width) + width) % width;
  out.x1 = (out.x0 + 1) % width;
  out.y0 = y;
  out.y1 = Math.min(y + 1, height - 1);
  return out;
}

const taps: WrappedTaps = { x0: 0, x1: 0, y0: 0, y1: 0, tx: 0, ty: 0 };
const single = /* @__PURE__ */ new Float64Array(1);

/** Writes the value at (u, v) of each of the grid's `channels` channels into out[o..]. */
export function sampleWrappedInto(
  values: ArrayLike<number>,
  width: number,
  height: number,
  channels: number,
  u: number,
  v: number,
  out: { [index: number]: number },
  o = 0,
): void {
  const { x0, x1, y0, y1, tx, ty } = wrappedTaps(width, height, u, v, taps);
  const a = (y0 * width + x0) * channels;
  const b = (y0 * width + x1) * channels;
  const c = (y1 * width + x0) * channels;
  const d = (y1 * width + x1) * channels;
  for (let k = 0; k < channels; k++) {
    const top = values[a + k]! * (1 - tx) + values[b + k]! * tx;
    const bottom = values[c + k]! * (1 - tx) + values[d + k]! * tx;
    out[o + k] = top * (1 - ty) + bottom * ty;
  }
}

/** The value at (u, v) of a one-channel grid. */
export function sampleWrapped(values: ArrayLike<number>, width: number, height: number, u: number, v: number): number {
  sampleWrappedInto(values, width, height, 1, u, v, single);
  return single[0]!;
}
