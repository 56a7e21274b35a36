/**
 * Neighbourhood effects of the looks, reading the tone-mapped display buffer (complete
 * for all rows before finishing starts). Every lookup wraps horizontally, so effects cross
 * the left/right seam like any other column; cells and stroke fields are defined on the
 * 3D direction, so they do not pinch at the poles.
 */
import { uOfDirection, vOfDirection } from "../../../../api/panorama/panorama-directions.ts";
import { hash3, noise3 } from "../../math/noise.ts";
import { type GroundHits, hitAt } from "../../pipeline/render-buffers.ts";

export interface DisplayImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** x wrapped into 0..W-1 (any integer; the common case, within one width, costs no division). */
function wrap(x: number, W: number): number {
  if (x >= 0) return x < W ? x : x - W < W ? x - W : x % W;
  return x + W >= 0 ? x + W : ((x % W) + W) % W;
}

/** Display colour (0..255 floats) of pixel (x, y), wrapping x and clamping y. */
export function pixel(img: DisplayImage, x: number, y: number, out: Float64Array): void {
  const W = img.width;
  const xi = wrap(x, W);
  const yi = y < 0 ? 0 : y >= img.height ? img.height - 1 : y;
  const o = (yi * W + xi) * 3;
  out[0] = img.data[o]!;
  out[1] = img.data[o + 1]!;
  out[2] = img.data[o + 2]!;
}

/** Adds weight * pixel(x, y) into acc. */
function accumulate(img: DisplayImage, x: number, y: number, weight: number, acc: Float64Array): void {
  const W = img.width;
  const xi = wrap(x, W);
  const yi = y < 0 ? 0 : y >= img.height ? img.height - 1 : y;
  const o = (yi * W + xi) * 3;
  acc[0]! += img.data[o]! * weight;
  acc[1]! += img.data[o + 1]! * weight;
  acc[2]! += img.data[o + 2]! * weight;
}

/** Pixel art: the colour at the centre of the block holding (x, y). */
export function blockSample(img: DisplayImage, x: number, y: number, block: number, out: Float64Array): void {
  const bx = Math.floor(x / block) * block + (block >> 1);
  const by = Math.floor(y / block) * block + (block >> 1);
  pixel(img, bx, by, out);
}

/**
 * Low-poly: the colour at the site of the direction's Voronoi cell on the sphere (sites
 * are jittered points of a 3D grid with `cells` per unit), with a per-facet shade. A facet
 * takes the mean of the site's pixel and its four neighbours (one star or grain does not
 * light a whole facet), and its shade varies as much as the picture does there: facets of
 * rock and ground are shaded apart, those of a smooth sky follow its gradient (a low-poly
 * sky is flat polygons in the sky's own colours, not a patchwork).
 */
export function facetSample(img: DisplayImage, dx: number, dy: number, dz: number, cells: number, out: Float64Array): void {
  const px = dx * cells;
  const py = dy * cells;
  const pz = dz * cells;
  const bx = Math.floor(px - 0.5);
  const by = Math.floor(py - 0.5);
  const bz = Math.floor(pz - 0.5);
  let best = Infinity;
  let sx = 0;
  let sy = 0;
  let sz = 0;
  let shade = 0;
  for (let k = 0; k < 8; k++) {
    const ix = bx + (k & 1);
    const iy = by + ((k >> 1) & 1);
    const iz = bz + (k >> 2);
    const cx = ix + 0.15 + 0.7 * hash3(ix, iy, iz, 101);
    const cy = iy + 0.15 + 0.7 * hash3(ix, iy, iz, 102);
    const cz = iz + 0.15 + 0.7 * hash3(ix, iy, iz, 103);
    const l = Math.sqrt(cx * cx + cy * cy + cz * cz) / cells;
    const ex = cx / l - px;
    const ey = cy / l - py;
    const ez = cz / l - pz;
    const d2 = ex * ex + ey * ey + ez * ez;
    if (d2 < best) {
      best = d2;
      sx = cx;
      sy = cy;
      sz = cz;
      shade = hash3(ix, iy, iz, 104);
    }
  }
  const l = Math.sqrt(sx * sx + sy * sy + sz * sz);
  const x = Math.floor(uOfDirection(sx / l, sz / l) * img.width);
  const y = Math.floor(vOfDirection(sy / l) * img.height);
  out[0] = out[1] = out[2] = 0;
  accumulate(img, x, y, 0.2, out);
  accumulate(img, x + 1, y, 0.2, out);
  accumulate(img, x - 1, y, 0.2, out);
  accumulate(img, x, y + 1, 0.2, out);
  accumulate(img, x, y - 1, 0.2, out);
  const k = 1 + (shade - 0.5) * 0.14 * Math.min(1, lumaEdge(img, x, y) / FACET_TEXTURE);
  out[0] = out[0] * k;
  out[1] = out[1] * k;
  out[2] = out[2] * k;
}

/** Luma step (0..255) between neighbours at which facets are shaded fully apart. */
const FACET_TEXTURE = 12;

/**
 * Painterly: colour averaged along a short stroke following a flowing direction field.
 * The stroke's 13 taps lie `length / 6` pixels apart; each is moved by its own random
 * fraction of that gap, different for every pixel. Taps at the same offsets everywhere
 * would lay sharp copies of every edge side by side (a fishnet of echoes, fanned out into
 * starbursts round bright points where the field turns), and from the skybox's centre the
 * background and the depth backdrop show exactly those pixels; jittered, the copies blur
 * into the stroke, with a fine grain. A stroke stays on the form it starts on: a tap
 * weighs less the more its colour differs from the stroke's own pixel, and nothing past
 * BRUSH_EDGE, so a mesa is painted with mesa and the sky with sky (averaged across the
 * edge, a ridge turns into a see-through ghost of both).
 */
export function brushSample(
  img: DisplayImage,
  x: number,
  y: number,
  dx: number,
  dy: number,
  dz: number,
  length: number,
  out: Float64Array,
): void {
  const a = noise3(dx * 3, dy * 3, dz * 3) * Math.PI * 2.5;
  const ux = Math.cos(a);
  const uy = Math.sin(a);
  pixel(img, x, y, centre);
  out[0] = out[1] = out[2] = 0;
  let total = 0;
  for (let s = -6; s <= 6; s++) {
    const f = ((s + hash3(x, y, s, 107) - 0.5) / 6) * length;
    pixel(img, Math.round(x + ux * f), Math.round(y + uy * f), tap);
    const d = (Math.abs(tap[0]! - centre[0]!) + Math.abs(tap[1]! - centre[1]!) + Math.abs(tap[2]! - centre[2]!)) / BRUSH_EDGE;
    if (d >= 1) continue;
    const w = (1 - Math.abs(s) / 9) * (1 - d) * (1 - d);
    out[0] = out[0] + tap[0]! * w;
    out[1] = out[1] + tap[1]! * w;
    out[2] = out[2] + tap[2]! * w;
    total += w;
  }
  out[0] = out[0] / total;
  out[1] = out[1] / total;
  out[2] = out[2] / total;
}

/** Colour difference (sum over R, G, B of 0..255) at which a stroke's tap no longer counts. */
const BRUSH_EDGE = 90;
const centre = new Float64Array(3);
const tap = new Float64Array(3);

/** Average colour on a ring of radius r around (x, y): a cheap wide glow source. */
export function ringAverage(img: DisplayImage, x: number, y: number, r: number, out: Float64Array): void {
  out[0] = out[1] = out[2] = 0;
  const ring = ringOffsets(r);
  for (let k = 0; k < 16; k += 2) accumulate(img, x + ring[k]!, y + ring[k + 1]!, 1 / 8, out);
}

let ringRadius = -1;
let ring = new Int32Array(16);

/** The 8 pixel offsets (dx, dy) of a ring of radius r (cached for the last radius). */
function ringOffsets(r: number): Int32Array {
  if (r !== ringRadius) {
    ring = new Int32Array(16);
    for (let k = 0; k < 8; k++) {
      const a = (k * Math.PI) / 4;
      // Round(x + c) - x = round(c) for integer x: the same taps as rounding each pixel's position.
      ring[2 * k] = Math.round(Math.cos(a) * r);
      ring[2 * k + 1] = Math.round(Math.sin(a) * r);
    }
    ringRadius = r;
  }
  return ring;
}

/** Largest luma difference between (x, y) and its 4 neighbours (0..255). */
export function lumaEdge(img: DisplayImage, x: number, y: number): number {
  // Module-level helpers, not closures: a closure made per pixel costs an allocation (and,
  // under tsx, a keepNames wrapper call).
  const c = luma(img, x, y);
  return Math.max(
    Math.abs(c - luma(img, x + 1, y)),
    Math.abs(c - luma(img, x - 1, y)),
    Math.abs(c - luma(img, x, y + 1)),
    Math.abs(c - luma(img, x, y - 1)),
  );
}

function luma(img: DisplayImage, x: number, y: number): number {
  const W = img.width;
  const xi = wrap(x, W);
  const yi = y < 0 ? 0 : y >= img.height ? img.height - 1 : y;
  const o = (yi * W + xi) * 3;
  const d = img.data;
  return d[o]! * 0.3 + d[o + 1]! * 0.59 + d[o + 2]! * 0.11;
}

/**
 * What outlining needs of the pixels of row y, into out[y * W .. (y + 1) * W), one byte a
 * pixel (computed while the hit distances are at hand, render-rows.ts; finishing has no
 * distances): the ink of a depth edge in the high 4 bits, the pixel's nearness in the low 4
 * (`outlineInk`, `outlineNearness`). Only what is near is inked, as an anime background
 * draws lines round what stands in front and paints distant ridges and the sky without
 * them; and a depth edge inks its near side only, the form's own pixels, never the sky or
 * the far ground behind it.
 */
export function depthOutlineRow(hit: GroundHits<Float32Array>, W: number, H: number, y: number, out: Uint8Array): void {
  for (let x = 0; x < W; x++) {
    const t = hitAt(hit, y * W + x, y);
    const near = inkNearness(t);
    const ink = near > 0 ? smooth((nearSideEdge(hit, W, H, x, y) - 0.12) * 3) * near : 0;
    out[y * W + x] = (Math.round(ink * 15) << 4) | Math.round(near * 15);
  }
}

/** Ink of a depth edge at a pixel (0..1) from its `depthOutlineRow` byte. */
export function outlineInk(byte: number): number {
  return (byte >> 4) / 15;
}

/** Nearness (0..1) of a pixel from its `depthOutlineRow` byte: how strongly its edges are inked. */
export function outlineNearness(byte: number): number {
  return (byte & 15) / 15;
}

/** Distances (m) within which lines are drawn in full, and past which none. */
const INK_NEAR = 150;
const INK_FAR = 1500;

/** 1 up to INK_NEAR metres, 0 from INK_FAR (and for the sky), smooth in log distance between. */
function inkNearness(t: number): number {
  return t < INK_FAR ? smooth(Math.log(INK_FAR / (t + 1)) / Math.log(INK_FAR / INK_NEAR)) : 0;
}

/** Smoothstep of t clamped to 0..1. */
export function smooth(t: number): number {
  const u = t < 0 ? 0 : t > 1 ? 1 : t;
  return u * u * (3 - 2 * u);
}

/** Largest relative depth jump from (x, y) to a farther one of its 4 neighbours (log units). */
function nearSideEdge(hit: GroundHits<Float32Array>, W: number, H: number, x: number, y: number): number {
  const c = logDepth(hit, W, H, x, y);
  return Math.max(
    0,
    logDepth(hit, W, H, x + 1, y) - c,
    logDepth(hit, W, H, x - 1, y) - c,
    logDepth(hit, W, H, x, y + 1) - c,
    logDepth(hit, W, H, x, y - 1) - c,
  );
}

function logDepth(hit: GroundHits<Float32Array>, W: number, H: number, x: number, y: number): number {
  const xi = wrap(x, W);
  const yi = y < 0 ? 0 : y >= H ? H - 1 : y;
  const t = hitAt(hit, yi * W + xi, yi);
  return Math.log(t < 2e5 ? t + 1 : 2e5);
}
