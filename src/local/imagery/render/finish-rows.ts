/**
 * Finishing a band of rows: the look's neighbourhood effect picks the source colour
 * (pixel blocks, facets, brush strokes), then outlines, watercolor paper and edges, glow,
 * colour grade, posterize/palette; an overlay (the untouched source of an edit, the
 * picture of image-to-pano) is blended on top. The final display byte is written and the
 * radiance is made consistent with it: unchanged where the look changed nothing, else
 * the radiance of the final colour (lookRadianceScaled in tone-map.ts), keeping HDR values
 * where the display clipped.
 * Last, the displayed sun disk of the radiance becomes the one carrying the sun's energy.
 */
import { elevationOfV } from "../../../api/panorama/panorama-directions.ts";
import { columnTrig } from "./column-trig.ts";
import { noise3 } from "../math/noise.ts";
import type { Look } from "../contract.ts";
import type { PreparedScene } from "../scene/prepare-scene.ts";
import type { TaskViews } from "../pipeline/render-buffers.ts";
import {
  blockSample,
  brushSample,
  type DisplayImage,
  facetSample,
  lumaEdge,
  outlineInk,
  outlineNearness,
  pixel,
  ringAverage,
  smooth,
} from "./looks/stylize.ts";
import { dither, lookRadianceScaled } from "./looks/tone-map.ts";
import { addSunEnergy } from "../scene/sky/sun-energy.ts";
import { readRgbe, writeRgbe } from "../formats/rgbe-pixel.ts";

/** Something shown over the render with a per-pixel weight (1 = only the overlay). */
export interface Overlay {
  weight(x: number, y: number): number;
  /** Display colour (0..255) and linear radiance of the overlay at (x, y). */
  sample(x: number, y: number, display: Float64Array, radiance: Float64Array): void;
}

const dir = new Float64Array(3);
/** Sine and cosine of the elevation of the row being finished. */
let rowSin = 0;
let rowCos = 1;
const s = new Float64Array(3);
const tmp = new Float64Array(3);
const oDisplay = new Float64Array(3);
const oRadiance = new Float64Array(3);
const BAYER = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5];

/**
 * Finishes rows [y0, y1), then gives their sun disk its energy (sun-energy.ts); returns
 * the irradiance (linear RGB) of the disk pixels of these rows.
 */
export function finishRows(P: PreparedScene, v: TaskViews, y0: number, y1: number, overlay?: Overlay): [number, number, number] {
  finishLook(P, v, y0, y1, overlay);
  const keep = overlay ? (x: number, y: number) => 1 - Math.min(1, overlay.weight(x, y)) : undefined;
  return addSunEnergy(P.sky, P.sunEnergy, P.width, P.height, v.radiance, v.sunShare, y0, y1, keep);
}

/**
 * Whether the look's finishing reads a display pixel only to write the same final pixel
 * (no neighbours), so that the final image may be the display buffer itself.
 */
export const finishesInPlace = (look: Look): boolean => look === "photoreal";

function finishLook(P: PreparedScene, v: TaskViews, y0: number, y1: number, overlay?: Overlay): void {
  const W = P.width;
  const H = P.height;
  const L = P.look;
  const img: DisplayImage = { width: W, height: H, data: v.display };
  const block = L.pixelBlocks > 0 ? Math.max(2, Math.round(W * L.pixelBlocks)) : 0;
  const brush = (L.brush * W) / 1024;
  const glowRadius = Math.max(2, W / 160);
  const plain = finishesInPlace(L.look);
  if (plain && !overlay) {
    // Nothing to finish: the final image is the display (often the very same buffer).
    if (v.final.buffer !== v.display.buffer) v.final.set(v.display.subarray(y0 * W * 3, y1 * W * 3), y0 * W * 3);
    return;
  }
  for (let y = y0; y < y1; y++) {
    const phi = elevationOfV((y + 0.5) / H);
    rowSin = Math.sin(phi);
    rowCos = Math.cos(phi);
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      const w = overlay ? overlay.weight(x, y) : 0;
      if (w >= 1) {
        overlay!.sample(x, y, oDisplay, oRadiance);
        write(v, i, oDisplay, oRadiance);
        continue;
      }
      if (plain) pixel(img, x, y, s);
      else stylizePixel(P, v, img, x, y, block, brush, glowRadius);
      const o = i * 3;
      let changed = !plain;
      readRgbe(v.radiance, i * 4, oRadiance);
      if (changed) radianceOf(P, v, o, s, oRadiance);
      if (w > 0) {
        overlay!.sample(x, y, oDisplay, tmp);
        for (let c = 0; c < 3; c++) {
          s[c] = s[c]! * (1 - w) + oDisplay[c]! * w;
          oRadiance[c] = oRadiance[c]! * (1 - w) + tmp[c]! * w;
        }
        changed = true;
      }
      if (changed) write(v, i, s, oRadiance);
      else for (let c = 0; c < 3; c++) v.final[o + c] = v.display[o + c]!;
    }
  }
}

function write(v: TaskViews, i: number, display: Float64Array, radiance: Float64Array): void {
  const o = i * 3;
  for (let c = 0; c < 3; c++) {
    const d = display[c]!;
    v.final[o + c] = d < 0 ? 0 : d > 255 ? 255 : d + 0.5;
  }
  writeRgbe(radiance[0]!, radiance[1]!, radiance[2]!, v.radiance, i * 4);
}

/**
 * Radiance consistent with display colour disp: HDR kept where the display clipped before
 * the look, else the radiance of the look's colour (tone-map.ts: lookRadianceScaled).
 */
function radianceOf(P: PreparedScene, v: TaskViews, o: number, disp: Float64Array, out: Float64Array): void {
  const d0 = v.display[o]!;
  const d1 = v.display[o + 1]!;
  const d2 = v.display[o + 2]!;
  if (d0 >= 250 || d1 >= 250 || d2 >= 250) {
    const before = d0 + d1 + d2 + 1;
    const after = disp[0]! + disp[1]! + disp[2]! + 1;
    const k = after / before;
    for (let c = 0; c < 3; c++) out[c] = out[c]! * k;
    return;
  }
  const k = 1 / P.exposure;
  for (let c = 0; c < 3; c++) out[c] = lookRadianceScaled(disp[c]!) * k;
}

function stylizePixel(
  P: PreparedScene,
  v: TaskViews,
  img: DisplayImage,
  x: number,
  y: number,
  block: number,
  brush: number,
  glowRadius: number,
): void {
  const L = P.look;
  const W = P.width;
  const { sin, cos } = columnTrig(W);
  dir[0] = sin[x]! * rowCos;
  dir[1] = rowSin;
  dir[2] = -cos[x]! * rowCos;
  if (block > 0) blockSample(img, x, y, block, s);
  else if (L.facets > 0) facetSample(img, dir[0], dir[1], dir[2], L.facets, s);
  else if (L.brush > 0) brushSample(img, x, y, dir[0], dir[1], dir[2], brush, s);
  else pixel(img, x, y, s);
  if (L.outline > 0) {
    const soft = P.spec.softLines;
    const o = v.outline[y * W + x]!;
    const e = Math.max(outlineInk(o), smooth((lumaEdge(img, x, y) - (soft ? 40 : 26)) / 40) * 0.8 * outlineNearness(o));
    const k = 1 - L.outline * e;
    for (let c = 0; c < 3; c++) s[c] = s[c]! * k;
  }
  if (L.paper > 0) paper(P, img, x, y);
  if (L.glow > 0) {
    ringAverage(img, x, y, glowRadius, tmp);
    for (let c = 0; c < 3; c++) {
      const bright = tmp[c]! > 150 ? (tmp[c]! - 150) / 105 : 0;
      s[c] = s[c]! + L.glow * bright * bright * 110;
    }
  }
  grade(P, x, y, block);
}

/** Watercolor: blotchy washes, pigment pooling at edges, paper grain, lifted values. */
function paper(P: PreparedScene, img: DisplayImage, x: number, y: number): void {
  const L = P.look;
  const wash = noise3(dir[0]! * 6, dir[1]! * 6, dir[2]! * 6);
  const grainScale = P.width / 5;
  const grain = noise3(dir[0]! * grainScale, dir[1]! * grainScale, dir[2]! * grainScale);
  const edge = Math.min(1, lumaEdge(img, x, y) / 30);
  for (let c = 0; c < 3; c++) {
    let value = s[c]! * (1 - 0.28 * edge * L.paper) * (1 + 0.08 * wash);
    value = value + (255 - value) * L.lift;
    s[c] = value * (1 + 0.05 * grain);
  }
}

function grade(P: PreparedScene, x: number, y: number, block: number): void {
  const L = P.look;
  const luma = s[0]! * 0.3 + s[1]! * 0.59 + s[2]! * 0.11;
  for (let c = 0; c < 3; c++) {
    let value = luma + (s[c]! - luma) * L.saturation;
    value = 128 + (value - 128) * L.contrast;
    s[c] = value;
  }
  if (L.posterize > 0) {
    const levels = L.posterize;
    const step = 255 / (levels - 1);
    // Ordered dithering on the art pixels (or screen pixels without blocks).
    const bx = block > 0 ? Math.floor(x / block) : x;
    const by = block > 0 ? Math.floor(y / block) : y;
    const thresh = block > 0 ? ((BAYER[(by & 3) * 4 + (bx & 3)]! + 0.5) / 16 - 0.5) * 0.6 : dither(x, y) * 0.3;
    for (let c = 0; c < 3; c++) {
      const q = Math.round(Math.min(255, Math.max(0, s[c]!)) / step + thresh);
      s[c] = Math.min(levels - 1, Math.max(0, q)) * step;
    }
  }
}
