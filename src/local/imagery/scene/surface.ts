/**
 * Ground materials and lighting: albedo from the scene's cover, altitude (tree line,
 * snowline), slope (bare rock on cliffs), closeness to water (beaches) and noise; light
 * from the sun or moon with soft terrain shadows (a short coarse march toward the light)
 * and cloud shadows, plus sky ambient. Looks change it: cel bands (anime), a dark ground
 * with a glowing grid (neon).
 */
import { cloudShadow, type CloudParams } from "./clouds.ts";
import type { LookParams } from "../render/looks.ts";
import { fbm2, value2 } from "../math/noise.ts";
import { clamp, smoothstep } from "../math/scalar.ts";
import type { SceneSpec } from "./scene-spec.ts";
import type { SkyParams } from "./sky.ts";
import { RELIEF, type TerrainParams, terrainHeight } from "./terrain.ts";
import { fg, fractalGrad } from "./terrain-noise.ts";
import { addGrid, streetLights } from "./ground-glow.ts";
import { allocateClipmap, type ClipmapMemory, clipmapCells, clipmapHeight, type HeightClipmap, openClipmap } from "./height-clipmap.ts";

/** Octaves of the terrain that shadows see (the shape of hills and ridges, not their texture). */
const SHADOW_OCTAVES = 3.5;

const COVERS = {
  grass: [0.07, 0.12, 0.035],
  forest: [0.03, 0.06, 0.022],
  autumn: [0.3, 0.11, 0.025],
  sand: [0.46, 0.33, 0.19],
  snow: [0.86, 0.89, 0.94],
  rock: [0.2, 0.185, 0.17],
  redrock: [0.5, 0.2, 0.08],
  alien: [0.3, 0.06, 0.28],
} as const;
const ROCK = [0.19, 0.175, 0.16];
const SNOW = [0.86, 0.89, 0.94];
const BEACH = [0.4, 0.33, 0.23];

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
export function prepareSurface(scene: SceneSpec, T: TerrainParams, look: LookParams, sky: SkyParams, width: number, clipmap?: ClipmapMemory): SurfaceParams {
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
    shadowHeights: openClipmap(clipmap ?? allocateClipmap(clipmapCells(width)), (x, z) => terrainHeight(T, x, z, SHADOW_OCTAVES)),
  };
}

/** Most octaves of the fine albedo and bump noise (2 m lattice, halving each octave), before the detail level's. */
const FINE_ALBEDO_OCTAVES = 6;
const FINE_BUMP_OCTAVES = 5;

/**
 * Octaves of the finest texture (the fine albedo noise) of ground seen with the given
 * footprint; its finest lattice is 2^(2 - octaves) metres.
 */
export function fineOctaves(P: SurfaceParams, footprint: number): number {
  const fine = Math.log2(2 / (2 * footprint + 1e-4)) + P.lodBias;
  return Math.min(FINE_ALBEDO_OCTAVES + P.detail, fine);
}

const alb = new Float64Array(3);
const INV_PI = 1 / Math.PI;
/** Sky light on the ground is boosted a little: bounce light and multiple scattering. */
const FILL = 1.6;

/** Radiance of the ground at p with normal n seen from distance `dist` into out. */
export function shadeGround(
  P: SurfaceParams,
  T: TerrainParams,
  S: SkyParams,
  K: CloudParams,
  px: number,
  py: number,
  pz: number,
  nx: number,
  ny: number,
  nz: number,
  footprint: number,
  out: Float64Array,
): void {
  // Fine detail below the heightfield's octaves: albedo variation and a bump on the normal.
  const fine = Math.log2(2 / (2 * footprint + 1e-4)) + P.lodBias;
  let v2 = 0;
  if (fine > 0) {
    v2 = fbm2(px / 2 + 3.3, pz / 2 - 8.1, Math.min(FINE_ALBEDO_OCTAVES + P.detail, fine), 0.8);
    fractalGrad(px, pz, 1 / 2, 11.3, 5.7, Math.min(FINE_BUMP_OCTAVES + P.detail, fine), false);
    const k = P.bump;
    nx -= fg[0]! * k;
    nz -= fg[1]! * k;
    const inv = 1 / Math.sqrt(nx * nx + ny * ny + nz * nz);
    nx *= inv;
    ny *= inv;
    nz *= inv;
  }
  albedo(P, px, py, pz, ny, footprint, v2);
  let ndl = nx * S.lx + ny * S.ly + nz * S.lz;
  ndl = ndl > 0 ? ndl : 0;
  let light = ndl;
  if (light > 0 && P.shadowOn) light *= terrainShadow(P, T, S, px, py, pz);
  if (light > 0) light *= cloudShadow(K, px, py, pz);
  if (P.celBands > 0) light = cel(light, P.celBands);
  const sky = 0.5 + 0.5 * ny;
  const ao = 1 - 0.35 * (1 - ny);
  for (let c = 0; c < 3; c++) out[c] = alb[c]! * INV_PI * (S.direct[c]! * light + S.ambient[c]! * FILL * sky * ao);
  if (streetGlow > 0) {
    out[0]! += streetGlow * 0.03;
    out[1]! += streetGlow * 0.02;
    out[2]! += streetGlow * 0.009;
  }
  if (P.neon) addGrid(px, pz, footprint, out);
}

/** Emission of street lights at the last albedo() call (night cities). */
let streetGlow = 0;

function albedo(P: SurfaceParams, px: number, py: number, pz: number, ny: number, footprint: number, fine: number): void {
  streetGlow = 0;
  const detail = smoothstep(30, 3, footprint);
  const v = value2(px / 60, pz / 60) * 0.6 + (detail > 0 ? value2(px / 7, pz / 7) * 0.4 * detail : 0);
  const slope = 1 - ny;
  const base = P.cover;
  let r = base[0]!;
  let g = base[1]!;
  let b = base[2]!;
  if (P.coverName === "redrock") {
    // Sandstone strata.
    const band = 0.5 + 0.5 * Math.sin(py / 9 + v * 1.5);
    r = 0.34 + 0.26 * band;
    g = 0.12 + 0.14 * band;
    b = 0.05 + 0.08 * band;
  } else if (P.coverName === "autumn") {
    const m = clamp(0.5 + v + fine * 0.5, 0, 1);
    r = 0.32 * m + 0.1 * (1 - m);
    g = 0.2 * m * m + 0.09 * (1 - m);
    b = 0.03;
  } else {
    const k = 1 + v * 0.35 + fine * 0.6;
    r *= k;
    g *= k;
    b *= k;
    // Patches of bare earth / dry ground in grass and forest floors.
    if (P.coverName === "grass" || P.coverName === "forest" || P.coverName === "alien") {
      const patch = smoothstep(0.15, 0.35, fine + v * 0.3) * 0.6;
      r += (0.13 - r) * patch;
      g += (0.1 - g) * patch;
      b += (0.06 - b) * patch;
    }
  }
  // Grass gives way to rock on steep slopes (not on tree canopies) and above the tree line.
  const steep = P.forest ? 0 : smoothstep(0.14, 0.3, slope + v * 0.08);
  const rocky = Math.max(steep, smoothstep(P.treeline * 0.9, P.treeline * 1.3, py + v * P.amp * 0.1));
  if (P.coverName !== "redrock" && P.coverName !== "snow" && P.coverName !== "sand") {
    const k = 1 + v * 0.3 + fine * 0.35;
    r += (ROCK[0]! * k - r) * rocky;
    g += (ROCK[1]! * k - g) * rocky;
    b += (ROCK[2]! * k - b) * rocky;
  }
  const beach = P.water > -1e9 ? 1 - smoothstep(P.water + 0.8, P.water + 3.5, py + v) : 0;
  r += (BEACH[0]! - r) * beach;
  g += (BEACH[1]! - g) * beach;
  b += (BEACH[2]! - b) * beach;
  if (P.cityRadius > 0) {
    // Streets and lots: grey ground inside the city.
    const rr = Math.sqrt(px * px + pz * pz);
    const paved = smoothstep(300, 360, rr) * (1 - smoothstep(P.cityRadius * 0.9, P.cityRadius, rr));
    const grey = 0.09 + 0.03 * fine;
    r += (grey - r) * paved;
    g += (grey - g) * paved;
    b += (grey * 1.05 - b) * paved;
    streetGlow = paved * P.cityNight * streetLights(px, pz, footprint);
  }
  const snow = smoothstep(P.snowline - P.amp * 0.06, P.snowline + P.amp * 0.04, py + v * P.amp * 0.12) * smoothstep(0.62, 0.4, slope);
  alb[0] = r + (SNOW[0]! - r) * snow;
  alb[1] = g + (SNOW[1]! - g) * snow;
  alb[2] = b + (SNOW[2]! - b) * snow;
  if (P.neon) {
    alb[0] = alb[0]! * 0.1;
    alb[1] = alb[1]! * 0.05;
    alb[2] = alb[2]! * 0.15;
  }
}

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
  return (i + smoothstep(0.45, 0.55, f)) / bands * 0.85 + 0.15 * (light > 0.02 ? 1 : 0);
}
