/**
 * The per-pixel renderer for a band of rows: for each pixel's direction, the nearest of
 * the ground (from the column march), buildings and water is shaded, or else the sky with
 * everything beyond it; clouds in front and fog are applied, and the linear radiance plus
 * its tone-mapped display value are written to the task's shared buffers.
 */
import { cityHit } from "../scene/city.ts";
import { shadeBuilding } from "../scene/city-shading.ts";
import { elevationOfV } from "../../../api/panorama/panorama-directions.ts";
import { columnTrig } from "./column-trig.ts";
import { applyGroundFog, groundFogTransmittance } from "../scene/fog.ts";
import { shadeLand } from "./land-pixel.ts";
import { nadirRadiance, planNadirRow } from "./nadir-grid.ts";
import type { PreparedScene } from "../scene/prepare-scene.ts";
import type { TaskViews } from "../pipeline/render-buffers.ts";
import { fogTable, type RowState, rowState } from "./row-state.ts";
import { applyClouds, shadeSky } from "./sky-pixel.ts";
import { dither, toneMapPixel } from "./tone-map.ts";
import { waterBody, waterFresnel, waveNormal } from "../scene/water.ts";

const col = new Float64Array(3);
const nrm = new Float64Array(3);
const disp = new Float64Array(3);
/** Water reflection weight of the last shadePixel call (0 if none). */
const reflection = new Float64Array(1);

/** Optional per-pixel adjustment of radiance before tone mapping (init-image guidance). */
export type RadianceGuide = (x: number, y: number, rgb: Float64Array) => void;

/** Whether a direction needs rendering at all (an edit renders only near its region). */
export type ActiveRegion = (dx: number, dy: number, dz: number) => boolean;

export function renderRows(P: PreparedScene, v: TaskViews, y0: number, y1: number, guide?: RadianceGuide, active?: ActiveRegion): void {
  const W = P.width;
  const H = P.height;
  const { sin, cos } = columnTrig(W);
  const row = rowState(W);
  for (let y = y0; y < y1; y++) {
    const phi = elevationOfV((y + 0.5) / H);
    const cp = Math.cos(phi);
    const sp = Math.sin(phi);
    row.y = y;
    row.sp = sp;
    row.cp = cp;
    planNadirRow(P, y, row.nadirPlan);
    for (let x = 0; x < W; x++) {
      row.x = x;
      const dx = sin[x]! * cp;
      const dz = -cos[x]! * cp;
      const i = y * W + x;
      if (active && !active(dx, sp, dz)) continue;
      shadePixel(P, row, dx, sp, dz, v.hit[i]!, col);
      v.aux[i] = reflection[0]!;
      if (guide) guide(x, y, col);
      const o = i * 3;
      const d = dither(x, y);
      toneMapPixel(col[0]!, col[1]!, col[2]!, P.exposure, disp);
      for (let c = 0; c < 3; c++) {
        v.radiance[o + c] = col[c]!;
        const s = disp[c]! + d;
        v.display[o + c] = s < 0 ? 0 : s > 255 ? 255 : s + 0.5;
      }
    }
  }
}

/** Radiance along a direction into out; the water reflection weight into `reflection`. */
function shadePixel(P: PreparedScene, row: RowState, dx: number, dy: number, dz: number, groundT: number, out: Float64Array): void {
  reflection[0] = 0;
  if (P.open) {
    shadeSky(P, row, dx, dy, dz, out);
    return;
  }
  let t = groundT;
  const cityT = P.city.on ? cityHit(P.city, P.camY, dx, dy, dz, t < 8000 ? t : 8000) : Infinity;
  if (cityT < t) {
    t = cityT;
    shadeBuilding(P.city, P.sky, P.cityLook, dx * t, P.camY + dy * t, dz * t, t, dx, dy, dz, out);
  } else if (t === Infinity) {
    shadeSky(P, row, dx, dy, dz, out);
    return;
  } else {
    if (P.water.on && P.camY + dy * t <= P.water.level + 0.05) {
      waveNormal(P.water, dx * t, dz * t, t * P.pixelAngle, nrm);
      const cosT = -(dx * nrm[0]! + dy * nrm[1]! + dz * nrm[2]!);
      const f = waterFresnel(cosT);
      waterBody(P.water, P.sky.direct, P.sky.ambient, P.sky.ly > 0 ? P.sky.ly : 0, out);
      for (let c = 0; c < 3; c++) out[c] = out[c]! * (1 - f);
      reflection[0] = f * groundFogTransmittance(fogTable(P, row), t);
    } else if (row.nadirPlan.step > 0) nadirRadiance(P, row, dx, dy, dz, t, out);
    else shadeLand(P, dx, dy, dz, t, out);
    applyClouds(P, row, dx, dy, dz, t, out);
  }
  applyGroundFog(P.fog, fogTable(P, row), t, P.hazeByColumn, row.x * 3, out);
}
