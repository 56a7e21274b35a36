/**
 * The ground's colour at a point: the scene's cover, modulated by noise (the large
 * `patches` and the fine texture), bare rock on steep slopes and above the tree line,
 * beaches by the water, paved streets in a city, snow above the snowline.
 */
import { value2 } from "../../math/noise.ts";
import { clamp, smoothstep } from "../../math/scalar.ts";
import { streetLights } from "./ground-glow.ts";
import { FOOTPRINT, PATCHES, PX, PY, PZ, VALUE } from "./ground-texture.ts";
import type { SurfaceParams } from "./surface.ts";

export const COVERS = {
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

/** The large-scale albedo noise at (px, pz): 60 m patches, 7 m ones faded out with distance. */
export function patches(px: number, pz: number, footprint: number): number {
  const detail = smoothstep(30, 3, footprint);
  return value2(px / 60, pz / 60) * 0.6 + (detail > 0 ? value2(px / 7, pz / 7) * 0.4 * detail : 0);
}

/**
 * Albedo (alb[0..2]) and street-light emission (alb[3]) of ground at `point`
 * (ground-texture.ts) with normal height ny, from the texture's fine noise (VALUE) and
 * patches.
 */
export function albedo(P: SurfaceParams, point: Float64Array, ny: number, tex: Float64Array, alb: Float64Array): void {
  const py = point[PY]!;
  const fine = tex[VALUE]!;
  const v = tex[PATCHES]!;
  alb[3] = 0;
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
    const px = point[PX]!;
    const pz = point[PZ]!;
    const rr = Math.sqrt(px * px + pz * pz);
    const paved = smoothstep(300, 360, rr) * (1 - smoothstep(P.cityRadius * 0.9, P.cityRadius, rr));
    const grey = 0.09 + 0.03 * fine;
    r += (grey - r) * paved;
    g += (grey - g) * paved;
    b += (grey * 1.05 - b) * paved;
    alb[3] = paved * P.cityNight * streetLights(px, pz, point[FOOTPRINT]!);
  }
  const snow = smoothstep(P.snowline - P.amp * 0.06, P.snowline + P.amp * 0.04, py + v * P.amp * 0.12) * smoothstep(0.62, 0.4, slope);
  alb[0] = r + (SNOW[0]! - r) * snow;
  alb[1] = g + (SNOW[1]! - g) * snow;
  alb[2] = b + (SNOW[2]! - b) * snow;
  if (P.neon) {
    // A dark violet floor, light enough that what stands on it and its shadow read.
    alb[0] = alb[0] * 0.4;
    alb[1] = alb[1] * 0.2;
    alb[2] = alb[2] * 0.55;
  }
}
