/**
 * Bilinear reads of an 8-bit RGB equirectangular panorama, wrapping around horizontally
 * (u = 0 meets u = 1) and clamping at the poles. Pixel i spans [i, i + 1) / size, so its
 * centre is at (i + 0.5) / size.
 */
export class PanoramaRgb8 {
  constructor(
    readonly width: number,
    readonly height: number,
    /** width * height * 3 bytes, top row first. */
    readonly data: Uint8Array,
  ) {}

  /** Writes the colour at (u, v) as 3 bytes into `out` at `o`. */
  sample(u: number, v: number, out: Uint8Array, o: number): void {
    const { width, height, data } = this;
    let fx = u * width - 0.5;
    const fy = Math.min(Math.max(v * height - 0.5, 0), height - 1);
    const xf = Math.floor(fx);
    const yf = Math.floor(fy);
    const tx = fx - xf;
    const ty = fy - yf;
    fx = xf % width;
    const x0 = fx < 0 ? fx + width : fx;
    const x1 = x0 + 1 === width ? 0 : x0 + 1;
    const y1 = yf + 1 < height ? yf + 1 : yf;
    const r0 = yf * width * 3;
    const r1 = y1 * width * 3;
    const a = r0 + x0 * 3, b = r0 + x1 * 3, c = r1 + x0 * 3, d = r1 + x1 * 3;
    const wa = (1 - tx) * (1 - ty), wb = tx * (1 - ty), wc = (1 - tx) * ty, wd = tx * ty;
    for (let k = 0; k < 3; k++) {
      out[o + k] = Math.round(data[a + k]! * wa + data[b + k]! * wb + data[c + k]! * wc + data[d + k]! * wd);
    }
  }
}
