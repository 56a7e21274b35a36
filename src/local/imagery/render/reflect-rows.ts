/**
 * Water reflections: each water pixel adds the panorama's own radiance seen along its
 * reflected direction (wave-perturbed), weighted by the Fresnel/fog factor the render pass
 * stored (rows below the horizon). Reflected directions point above the horizon, where no
 * pixel is water, so bands can run in parallel and write in place.
 *
 * Glints (the sun or bright lights in a wave) are smaller than a pixel: one normal at the
 * pixel's centre draws each as a whole pixel at full strength, bricks in a row. Where the
 * centre's reflection is a highlight, the pixel is supersampled (GLINT_SAMPLES rays
 * spread over its area, each with its own wave normal), so a glint covers the share of
 * the pixel it does; only the few highlight pixels pay for it.
 */
import { azimuthOfU, elevationOfV, uOfDirection, vOfDirection } from "../../../api/panorama/panorama-directions.ts";
import { type WrappedTaps, wrappedTaps } from "../../../api/panorama/panorama-sampling.ts";
import { readRgbe, writeRgbe } from "../formats/rgbe-pixel.ts";
import type { PreparedScene } from "../scene/prepare-scene.ts";
import { hitAt, type TaskViews } from "../pipeline/render-buffers.ts";
import { columnTrig } from "./column-trig.ts";
import { writeDisplay } from "./looks/tone-map.ts";
import { waveNormal } from "../scene/water.ts";

const nrm = new Float64Array(3);
const sample = new Float64Array(3);
const own = new Float64Array(3);
const corners = new Float64Array(12);
const taps: WrappedTaps = { x0: 0, x1: 0, y0: 0, y1: 0, tx: 0, ty: 0 };

export function reflectRows(P: PreparedScene, v: TaskViews, y0: number, y1: number): void {
  const W = P.width;
  const H = P.height;
  const minUp = (1.5 * Math.PI) / H;
  const { sin, cos } = columnTrig(W);
  const { reflection, hit, radiance, display } = v;
  white = 1 / P.exposure;
  for (let y = Math.max(y0, reflection.y0); y < Math.min(y1, reflection.y1); y++) {
    const phi = elevationOfV((y + 0.5) / H);
    const cp = Math.cos(phi);
    const dy = Math.sin(phi);
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      const weight = reflection.data[(y - reflection.y0) * W + x]!;
      if (!(weight > 0)) continue;
      const dx = sin[x]! * cp;
      const dz = -cos[x]! * cp;
      const t = hitAt(hit, i, y);
      reflected(P, radiance, dx, dy, dz, t, minUp, sample);
      readRgbe(radiance, i * 4, own);
      if (highlight(sample, own, weight)) supersample(P, radiance, x, y, t, dy, minUp, sample);
      for (let c = 0; c < 3; c++) own[c] = own[c]! + weight * sample[c]!;
      writeRgbe(own[0]!, own[1]!, own[2]!, radiance, i * 4);
      writeDisplay(own, 0, P, x, y, display, i * 3);
    }
  }
}

/** The panorama's radiance along ray (dx, dy, dz) reflected by the waves at distance t, into out. */
function reflected(
  P: PreparedScene,
  radiance: Uint8Array,
  dx: number,
  dy: number,
  dz: number,
  t: number,
  minUp: number,
  out: Float64Array,
  footprint = t * P.pixelAngle,
): void {
  waveNormal(P.water, dx * t, dz * t, footprint, nrm);
  const dn = dx * nrm[0]! + dy * nrm[1]! + dz * nrm[2]!;
  const rx = dx - 2 * dn * nrm[0]!;
  let ry = dy - 2 * dn * nrm[1]!;
  const rz = dz - 2 * dn * nrm[2]!;
  if (ry < minUp) ry = minUp;
  sampleRgbe(radiance, P.width, P.height, uOfDirection(rx, rz), vOfDirection(ry), out);
}

/** Rays a highlight pixel is supersampled with (a 3 x 3 grid). */
const GLINT_GRID = 3;
/** A reflection is a highlight when it adds over this share of the display's white to each channel. */
const GLINT_LEVEL = 1;
const sub = new Float64Array(3);

/** Whether the reflection `sample` (weighted) makes the pixel a highlight: bright on its own, and far over the water's own light. */
function highlight(sample: Float64Array, own: Float64Array, weight: number): boolean {
  const added = (sample[0]! + sample[1]! + sample[2]!) * weight;
  return added > 3 * GLINT_LEVEL * white && added > 4 * (own[0]! + own[1]! + own[2]!);
}

/** The radiance the display shows as white (1 / exposure) in the render being reflected. */
let white = 1;

/**
 * The mean reflection over GLINT_GRID x GLINT_GRID rays spread over pixel (x, y), each
 * meeting the water (a plane at distance about t) with its own wave normal, into out.
 */
function supersample(
  P: PreparedScene,
  radiance: Uint8Array,
  x: number,
  y: number,
  t: number,
  dy0: number,
  minUp: number,
  out: Float64Array,
): void {
  const W = P.width;
  const H = P.height;
  // The water plane's height under the camera's eye, from the centre ray's hit.
  const drop = -dy0 * t;
  out[0] = out[1] = out[2] = 0;
  for (let j = 0; j < GLINT_GRID; j++) {
    const phi = elevationOfV((y + (j + 0.5) / GLINT_GRID) / H);
    const dy = Math.sin(phi);
    if (dy >= 0) continue;
    const cp = Math.cos(phi);
    const ts = drop / -dy;
    for (let k = 0; k < GLINT_GRID; k++) {
      const az = azimuthOfU((x + (k + 0.5) / GLINT_GRID) / W);
      // Each ray sees the waves a pixel of its own (a GLINT_GRID-th of the pixel) would.
      reflected(P, radiance, Math.sin(az) * cp, dy, -Math.cos(az) * cp, ts, minUp, sub, (ts * P.pixelAngle) / GLINT_GRID);
      for (let c = 0; c < 3; c++) out[c] = out[c]! + sub[c]! / (GLINT_GRID * GLINT_GRID);
    }
  }
}

/** The bilinear read at (u, v) of an RGBE image (4 bytes a pixel) into out[0..2]. */
function sampleRgbe(bytes: Uint8Array, width: number, height: number, u: number, v: number, out: Float64Array): void {
  const { x0, x1, y0, y1, tx, ty } = wrappedTaps(width, height, u, v, taps);
  readRgbe(bytes, (y0 * width + x0) * 4, corners, 0);
  readRgbe(bytes, (y0 * width + x1) * 4, corners, 3);
  readRgbe(bytes, (y1 * width + x0) * 4, corners, 6);
  readRgbe(bytes, (y1 * width + x1) * 4, corners, 9);
  for (let c = 0; c < 3; c++) {
    const top = corners[c]! * (1 - tx) + corners[3 + c]! * tx;
    const bottom = corners[6 + c]! * (1 - tx) + corners[9 + c]! * tx;
    out[c] = top * (1 - ty) + bottom * ty;
  }
}
