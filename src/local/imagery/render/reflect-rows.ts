/**
 * Water reflections: each water pixel adds the panorama's own radiance seen along its
 * reflected direction (wave-perturbed), weighted by the Fresnel/fog factor the render pass
 * stored. Reflected directions point above the horizon, where no pixel is water, so bands
 * can run in parallel and write in place.
 */
import { directionOfUv, uOfDirection, vOfDirection } from "../../../api/panorama/panorama-directions.ts";
import { sampleWrappedInto } from "../../../api/panorama/panorama-sampling.ts";
import type { PreparedScene } from "../scene/prepare-scene.ts";
import type { TaskViews } from "../pipeline/render-buffers.ts";
import { dither, toneMapPixel } from "./tone-map.ts";
import { waveNormal } from "../scene/water.ts";

const dir = new Float64Array(3);
const nrm = new Float64Array(3);
const sample = new Float64Array(3);
const disp = new Float64Array(3);

export function reflectRows(P: PreparedScene, v: TaskViews, y0: number, y1: number): void {
  const W = P.width;
  const H = P.height;
  const minUp = (1.5 * Math.PI) / H;
  for (let y = Math.max(y0, H >> 1); y < y1; y++) {
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      const weight = v.aux[i]!;
      if (!(weight > 0)) continue;
      directionOfUv((x + 0.5) / W, (y + 0.5) / H, dir);
      const t = v.hit[i]!;
      waveNormal(P.water, dir[0]! * t, dir[2]! * t, t * P.pixelAngle, nrm);
      const dn = dir[0]! * nrm[0]! + dir[1]! * nrm[1]! + dir[2]! * nrm[2]!;
      const rx = dir[0]! - 2 * dn * nrm[0]!;
      let ry = dir[1]! - 2 * dn * nrm[1]!;
      const rz = dir[2]! - 2 * dn * nrm[2]!;
      if (ry < minUp) ry = minUp;
      sampleWrappedInto(v.radiance, W, H, 3, uOfDirection(rx, rz), vOfDirection(ry), sample);
      const o = i * 3;
      const d = dither(x, y);
      for (let c = 0; c < 3; c++) v.radiance[o + c] = v.radiance[o + c]! + weight * sample[c]!;
      toneMapPixel(v.radiance[o]!, v.radiance[o + 1]!, v.radiance[o + 2]!, P.exposure, disp);
      for (let c = 0; c < 3; c++) {
        const s = disp[c]! + d;
        v.display[o + c] = s < 0 ? 0 : s > 255 ? 255 : s + 0.5;
      }
    }
  }
}
