/**
 * The radiance of the land (not water) at distance t along a pixel's ray, before clouds
 * and fog: the terrain's normal at the pixel's level of detail, then its material and light.
 */
import type { PreparedScene } from "../scene/prepare-scene.ts";
import { shadeGround } from "../scene/surface.ts";
import { terrainHeight, terrainOctaves, tg } from "../scene/terrain.ts";

export function shadeLand(P: PreparedScene, dx: number, dy: number, dz: number, t: number, out: Float64Array): void {
  const px = dx * t;
  const py = P.camY + dy * t;
  const pz = dz * t;
  terrainHeight(P.terrain, px, pz, terrainOctaves(P.terrain, t, P.pixelAngle) + 1);
  const gx = tg[0]!;
  const gz = tg[1]!;
  const inv = 1 / Math.sqrt(gx * gx + 1 + gz * gz);
  shadeGround(P.surface, P.terrain, P.sky, P.clouds, px, py, pz, -gx * inv, inv, -gz * inv, t * P.pixelAngle, out);
}
