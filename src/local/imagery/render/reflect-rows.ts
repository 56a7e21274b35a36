/**
 * Water reflections: each water pixel adds the panorama's own radiance seen along its
 * reflected direction (wave-perturbed), weighted by the Fresnel/fog factor the render pass
 * stored (rows below the horizon). Reflected directions point above the horizon, where no
 * pixel is water, so bands can run in parallel and write in place.
 */
import { elevationOfV, uOfDirection, vOfDirection } from "../../../api/panorama/panorama-directions.ts";
import { type WrappedTaps, wrappedTaps } from "../../../api/panorama/panorama-sampling.ts";
import { readRgbe, writeRgbe } from "../formats/rgbe-pixel.ts";
import type { PreparedScene } from "../scene/prepare-scene.ts";
import type { TaskViews } from "../pipeline/render-buffers.ts";
import { columnTrig } from "./column-trig.ts";
import { writeDisplay } from "./tone-map.ts";
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
      const t = hit[i]!;
      waveNormal(P.water, dx * t, dz * t, t * P.pixelAngle, nrm);
      const dn = dx * nrm[0]! + dy * nrm[1]! + dz * nrm[2]!;
      const rx = dx - 2 * dn * nrm[0]!;
      let ry = dy - 2 * dn * nrm[1]!;
      const rz = dz - 2 * dn * nrm[2]!;
      if (ry < minUp) ry = minUp;
      sampleRgbe(radiance, W, H, uOfDirection(rx, rz), vOfDirection(ry), sample);
      readRgbe(radiance, i * 4, own);
      for (let c = 0; c < 3; c++) own[c] = own[c]! + weight * sample[c]!;
      writeRgbe(own[0]!, own[1]!, own[2]!, radiance, i * 4);
      writeDisplay(own, 0, P, x, y, display, i * 3);
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
