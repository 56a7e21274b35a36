/**
 * The radiance of the land (not water) at distance t along a pixel's ray, before clouds
 * and fog: the terrain's normal at the pixel's level of detail, the texture's noise, then
 * its material and light.
 */
import { patches } from "../scene/ground/ground-albedo.ts";
import {
  addFineTexture,
  BUMP_X,
  BUMP_Z,
  CLOUDS,
  FINE,
  FOOTPRINT,
  NX,
  NY,
  NZ,
  PATCHES,
  POINT_LENGTH,
  PX,
  PY,
  PZ,
  setFootprint,
  SHADOW,
  TEXTURE_LENGTH,
} from "../scene/ground/ground-texture.ts";
import type { PreparedScene } from "../scene/prepare-scene.ts";
import { shadeGround } from "../scene/ground/surface.ts";
import { terrainHeight, terrainOctaves, tg } from "../scene/terrain/terrain.ts";

const texture = new Float64Array(TEXTURE_LENGTH);
const point = new Float64Array(POINT_LENGTH);

/** `ray`: the unit direction (x, y, z). */
export function shadeLand(P: PreparedScene, ray: Float64Array, t: number, out: Float64Array): void {
  const px = ray[0]! * t;
  const pz = ray[2]! * t;
  terrainHeight(P.terrain, px, pz, terrainOctaves(P.terrain, t, P.pixelAngle) + 1);
  const gx = tg[0]!;
  const gz = tg[1]!;
  const inv = 1 / Math.sqrt(gx * gx + 1 + gz * gz);
  point[PX] = px;
  point[PY] = P.camY + ray[1]! * t;
  point[PZ] = pz;
  point[NX] = -gx * inv;
  point[NY] = inv;
  point[NZ] = -gz * inv;
  setFootprint(P.surface, point, t * P.pixelAngle);
  texture[FINE] = 0;
  texture[BUMP_X] = 0;
  texture[BUMP_Z] = 0;
  texture[PATCHES] = patches(px, pz, point[FOOTPRINT]!);
  // Shadows are found by the shading, only where the ground faces the light.
  texture[SHADOW] = NaN;
  texture[CLOUDS] = NaN;
  addFineTexture(point, 0, 0, texture);
  shadeGround(P.surface, P.terrain, P.sky, P.clouds, point, texture, out);
}
