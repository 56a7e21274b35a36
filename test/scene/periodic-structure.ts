/**
 * Echoes in a picture: copies of every edge a fixed distance apart (a brush whose taps lie
 * that far apart lays them: a fishnet, fanned out into starbursts round bright points where
 * its strokes turn). Detail that only fades with distance correlates less with itself
 * shifted by twice some distance than by once it; echoes `lag` apart reverse that at `lag`.
 */

const TILE = 48;
const BLUR = 4;

/** A grey picture, row by row. */
export interface Grey {
  width: number;
  height: number;
  values: Float32Array;
}

/** The picture minus its mean over a (2 BLUR + 1)-pixel square: its detail. */
function detail(g: Grey): Float32Array {
  const { width: w, height: h, values } = g;
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let sum = 0;
      let n = 0;
      for (let j = Math.max(0, y - BLUR); j <= Math.min(h - 1, y + BLUR); j++)
        for (let i = Math.max(0, x - BLUR); i <= Math.min(w - 1, x + BLUR); i++) {
          sum += values[j * w + i]!;
          n++;
        }
      out[y * w + x] = values[y * w + x]! - sum / n;
    }
  return out;
}

/** Bilinear value of `d` at (x, y). */
function at(d: Float32Array, w: number, x: number, y: number): number {
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const fx = x - x0;
  const fy = y - y0;
  const i = y0 * w + x0;
  return (d[i]! * (1 - fx) + d[i + 1]! * fx) * (1 - fy) + (d[i + w]! * (1 - fx) + d[i + w + 1]! * fx) * fy;
}

/**
 * For each 48-pixel tile with detail (a flat sky has none to judge): how much more its
 * detail correlates with itself shifted by `lag` pixels than shifted by half and by one and
 * a half times that, relative to its own energy, in the direction (of 24) where that is
 * most. Echoes `lag` apart make it clearly positive (0.1 and more); plain detail, about 0
 * or negative.
 * @param g the picture
 * @param lag the distance between echoes, in pixels
 * @param minDetail the least RMS detail a tile must have to be judged
 */
export function echoScores(g: Grey, lag: number, minDetail = 4): number[] {
  const d = detail(g);
  const { width: w, height: h } = g;
  const reach = Math.ceil(1.5 * lag) + 2;
  const scores: number[] = [];
  for (let ty = reach; ty + TILE + reach <= h; ty += TILE)
    for (let tx = reach; tx + TILE + reach <= w; tx += TILE) {
      let r0 = 0;
      for (let y = ty; y < ty + TILE; y++) for (let x = tx; x < tx + TILE; x++) r0 += d[y * w + x]! ** 2;
      if (r0 / (TILE * TILE) < minDetail * minDetail) continue;
      const corr = (dx: number, dy: number) => {
        let s = 0;
        for (let y = ty; y < ty + TILE; y++) for (let x = tx; x < tx + TILE; x++) s += d[y * w + x]! * at(d, w, x + dx, y + dy);
        return s / r0;
      };
      let best = -Infinity;
      for (let k = 0; k < 24; k++) {
        const ux = Math.cos((k * Math.PI) / 24);
        const uy = Math.sin((k * Math.PI) / 24);
        best = Math.max(
          best,
          corr(lag * ux, lag * uy) - Math.max(corr(0.5 * lag * ux, 0.5 * lag * uy), corr(1.5 * lag * ux, 1.5 * lag * uy)),
        );
      }
      scores.push(best);
    }
  return scores;
}
