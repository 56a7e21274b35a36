/**
 * Ground materials and lighting: albedo from the scene's cover, altitude (tree line,
 * snowline), slope (bare rock on cliffs), closeness to water (beaches) and noise; light
 * from the sun or moon with soft terrain shadows (a short coarse march toward the light)
 * and cloud shadows, plus sky ambient. Looks change it: cel bands (anime), a dark ground
 * with a glowing grid (neon).
 */
import { cloudShadow, type CloudParams } from "../sky/clouds.ts";
import type { LookParams } from "../../render/looks/looks.ts";
import { smoothstep } from "../../math/scalar.ts";
import type { SceneSpec } from "../scene-spec.ts";
import type { SkyParams } from "../sky/sky.ts";
import { RELIEF, type TerrainParams, terrainHeightOnly } from "../terrain/terrain.ts";
import { addGrid } from "./ground-glow.ts";
import { albedo, COVERS } from "./ground-albedo.ts";
import {
  ALBEDO_NORM,
  ALBEDO_OCTAVES,
  BUMP_X,
  BUMP_Z,
  CLOUDS,
  FINE,
  FOOTPRINT,
  NX,
  NY,
  NZ,
  PX,
  PY,
  PZ,
  SHADOW,
  VALUE,
} from "./ground-texture.ts";
import {
  allocateClipmap,
  type ClipmapMemory,
  clipmapCells,
  clipmapHeight,
  type HeightClipmap,
  openClipmap,
} from "../terrain/height-clipmap.ts";

/** Octaves of the terrain that shadows see (the shape of hills and ridges, not their texture). */
const SHADOW_OCTAVES = 3.5;

export interface SurfaceParams {
  cover: readonly number[];
  coverName: SceneSpec["cover"];
  snowline: number;
  water: number;
  treeline: number;
  shadowSteps: number[];
  shadowOn: boolean;
  celBands: number;
  neon: boolean;
  amp: number;
  forest: boolean;
  cityRadius: number;
  /** 0 by day, 1 at night: street lights in a city. */
  cityNight: number;
  /** Strength of the fine bump on normals. */
  bump: number;
  detail: number;
  lodBias: number;
  /** The terrain at SHADOW_OCTAVES, precomputed on a grid that shadow rays read. */
  shadowHeights: HeightClipmap;
}

/** `clipmap`: shared storage of the shadow heights (a private one is made without it). */
export function prepareSurface(
  scene: SceneSpec,
  T: TerrainParams,
  look: LookParams,
  sky: SkyParams,
  width: number,
  clipmap?: ClipmapMemory,
): SurfaceParams {
  const scale = { 0: 0, 1: 0.2, 2: 0.5, 3: 1, 4: 0.3, 5: 0.6 }[T.kind] ?? 1;
  return {
    cover: COVERS[scene.cover],
    coverName: scene.cover,
    snowline: scene.snowline ?? 1e9,
    water: T.water,
    treeline: T.kind === RELIEF.mountains ? T.amp * 0.55 : 1e9,
    shadowSteps: [10, 40, 150, 500, 1600].map((t) => t * scale),
    shadowOn: scale > 0.15 && sky.ly > -0.05 && sky.ly < 0.85,
    celBands: look.celBands,
    neon: look.neon,
    amp: Math.max(T.amp, 50),
    forest: T.forest,
    cityRadius: T.cityRadius,
    cityNight: scene.time === "night" ? 1 : scene.time === "dusk" ? 0.6 : 0,
    bump: scene.cover === "sand" || scene.cover === "snow" ? 0.35 : 1,
    detail: scene.detail,
    lodBias: T.lodBias,
    shadowHeights: openClipmap(clipmap ?? allocateClipmap(clipmapCells(width)), (x, z) => terrainHeightOnly(T, x, z, SHADOW_OCTAVES)),
  };
}

const alb = new Float64Array(4);
const INV_PI = 1 / Math.PI;
/** Sky light on the ground is boosted a little: bounce light and multiple scattering. */
const FILL = 1.6;

/** Light that reaches ground point p past the terrain (SHADOW) and the clouds (CLOUDS), into t. */
export function groundShadows(
  P: SurfaceParams,
  T: TerrainParams,
  S: SkyParams,
  K: CloudParams,
  px: number,
  py: number,
  pz: number,
  t: Float64Array,
): void {
  t[SHADOW] = P.shadowOn ? terrainShadow(P, T, S, px, py, pz) : 1;
  t[CLOUDS] = cloudShadow(K, px, py, pz);
}

/**
 * Radiance of the ground at `point` (ground-texture.ts: position, normal, footprint) into
 * out, given the noise of its texture there.
 */
export function shadeGround(
  P: SurfaceParams,
  T: TerrainParams,
  S: SkyParams,
  K: CloudParams,
  point: Float64Array,
  t: Float64Array,
  out: Float64Array,
): void {
  const px = point[PX]!;
  const py = point[PY]!;
  const pz = point[PZ]!;
  let nx = point[NX]!;
  let ny = point[NY]!;
  let nz = point[NZ]!;
  // Fine detail below the heightfield's octaves: albedo variation and a bump on the normal.
  const octaves = point[ALBEDO_OCTAVES]!;
  t[VALUE] = 0;
  if (octaves > 0) {
    t[VALUE] = t[FINE]! / point[ALBEDO_NORM]!;
    const k = P.bump;
    nx -= t[BUMP_X]! * k;
    nz -= t[BUMP_Z]! * k;
    const inv = 1 / Math.sqrt(nx * nx + ny * ny + nz * nz);
    nx *= inv;
    ny *= inv;
    nz *= inv;
  }
  albedo(P, point, ny, t, alb);
  let ndl = nx * S.lx + ny * S.ly + nz * S.lz;
  ndl = ndl > 0 ? ndl : 0;
  let light = ndl;
  if (light > 0 && P.shadowOn) light *= Number.isNaN(t[SHADOW]) ? terrainShadow(P, T, S, px, py, pz) : t[SHADOW]!;
  if (light > 0) light *= Number.isNaN(t[CLOUDS]) ? cloudShadow(K, px, py, pz) : t[CLOUDS]!;
  if (P.celBands > 0) light = cel(light, P.celBands);
  const sky = 0.5 + 0.5 * ny;
  const ao = 1 - 0.35 * (1 - ny);
  for (let c = 0; c < 3; c++) out[c] = alb[c]! * INV_PI * (S.direct[c]! * light + S.ambient[c]! * FILL * sky * ao);
  const glow = alb[3]!;
  if (glow > 0) {
    out[0]! += glow * 0.03;
    out[1]! += glow * 0.02;
    out[2]! += glow * 0.009;
  }
  if (P.neon) {
    // A glossy floor: the glowing sky's sheen on it, so that what stands on it reads.
    for (let c = 0; c < 3; c++) out[c] = out[c]! + S.ambient[c]! * NEON_SHEEN * ny;
    addGrid(px, pz, point[FOOTPRINT]!, out);
  }
}

/** How much of the sky's ambient light the neon look's glossy floor shows. */
const NEON_SHEEN = 0.15;

/** Soft shadow: how much of the light reaches p past the terrain (coarse march). */
function terrainShadow(P: SurfaceParams, T: TerrainParams, S: SkyParams, px: number, py: number, pz: number): number {
  let s = 1;
  const steps = P.shadowSteps;
  for (let i = 0; i < steps.length; i++) {
    const t = steps[i]!;
    const qy = py + S.ly * t;
    if (qy > T.maxHeight) break;
    const h = clipmapHeight(P.shadowHeights, px + S.lx * t, pz + S.lz * t);
    const v = smoothstep(-1, 1, (qy - h) / (0.035 * t + 1.5));
    if (v < s) s = v;
    if (s <= 0.01) return 0;
  }
  return s;
}

/** Two-tone (or n-tone) cel lighting with a narrow soft edge. */
function cel(light: number, bands: number): number {
  const x = light * bands;
  const i = Math.floor(x);
  const f = x - i;
  return ((i + smoothstep(0.45, 0.55, f)) / bands) * 0.85 + 0.15 * (light > 0.02 ? 1 : 0);
}
