/**
 * Water reflections: each water pixel adds the panorama's own radiance seen along its
 * reflected direction (wave-perturbed), weighted by the Fresnel/fog factor the render pass
 * stored. Reflected directions point above the horizon, where no pixel is water, so bands
 * can run in parallel and write in place.
 */
import { elevationOfV, uOfDirection, vOfDirection } from "../../../api/panorama/panorama-directions.ts";
import { sampleWrappedInto } from "../../../api/panorama/panorama-sampling.ts";
import type { PreparedScene } from "../scene/prepare-scene.ts";
import type { TaskViews } from "../pipeline/render-buffers.ts";
import { columnTrig } from "./column-trig.ts";
import { writeDisplay } from "./tone-map.ts";
import { waveNormal } from "../scene/water.ts";

const nrm = new Float64Array(3);
const sample = new Float64Array(3);

export function reflectRows(P: PreparedScene, v: TaskViews, y0: number, y1: number): void {
  const W = P.width;
  const H = P.height;
  const minUp = (1.5 * Math.PI) / H;
  const { sin, cos } = columnTrig(W);
  const { aux, hit, radiance, display } = v;
  for (let y = Math.max(y0, H >> 1); y < y1; y++) {
    const phi = elevationOfV((y + 0.5) / H);
    const cp = Math.cos(phi);
    const dy = Math.sin(phi);
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      const weight = aux[i]!;
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
      sampleWrappedInto(radiance, W, H, 3, uOfDirection(rx, rz), vOfDirection(ry), sample);
      const o = i * 3;
      for (let c = 0; c < 3; c++) radiance[o + c] = radiance[o + c]! + weight * sample[c]!;
      writeDisplay(radiance, o, P, x, y, display, o);
    }
  }
}
