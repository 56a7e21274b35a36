/**
 * The distance pass at the depth map's size: for each pixel, the exact distance of the
 * surface its ray hits (ground from the column march, buildings, planets), SKY_DISTANCE
 * for the sky, plus the 16-bit depth.png value of it.
 */
import { cityHit } from "../scene/city/city.ts";
import { depthValue, SKY_DISTANCE } from "./depth-map.ts";
import { elevationOfV } from "../../../api/panorama/panorama-directions.ts";
import { columnTrig } from "./column-trig.ts";
import type { PreparedScene } from "../scene/prepare-scene.ts";
import type { TaskViews } from "../pipeline/render-buffers.ts";
import { planetDistance } from "../scene/sky/space.ts";

const dir = new Float64Array(3);

/** An edit keeps the source's distances where the new render's weight is below 0.5. */
export interface KeptDistances {
  weight(dx: number, dy: number, dz: number): number;
  source: Float32Array;
}

/** P must be prepared at the depth width; rows [y0, y1) of the depth map. */
export function distanceRows(P: PreparedScene, v: TaskViews, y0: number, y1: number, kept?: KeptDistances): void {
  const W = P.width;
  const H = P.height;
  // Each pixel's direction (panorama-directions.ts' directionOfUv) from its column's and its row's trigonometry.
  const { sin, cos } = columnTrig(W);
  for (let y = y0; y < y1; y++) {
    const elevation = elevationOfV((y + 0.5) / H);
    const c = Math.cos(elevation);
    dir[1] = Math.sin(elevation);
    for (let x = 0; x < W; x++) {
      dir[0] = sin[x]! * c;
      dir[2] = -cos[x]! * c;
      const i = y * W + x;
      if (kept && kept.weight(dir[0], dir[1], dir[2]) < 0.5) {
        v.distance[i] = kept.source[i]!;
        v.depth16[i] = depthValue(kept.source[i]!);
        continue;
      }
      let t = P.open ? Infinity : v.depthHit[i]!;
      if (P.city.on) {
        const c = cityHit(P.city, P.camY, dir[0], dir[1], dir[2], t < 8000 ? t : 8000);
        if (c < t) t = c;
      }
      if (t === Infinity && P.space.planets.length > 0) t = planetDistance(P.space, dir[0], dir[1], dir[2]);
      const d = t < SKY_DISTANCE ? t : SKY_DISTANCE;
      v.distance[i] = d;
      v.depth16[i] = depthValue(d);
    }
  }
}
