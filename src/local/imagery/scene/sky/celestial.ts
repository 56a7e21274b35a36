/**
 * Things beyond the atmosphere, added to the sky along a direction: the sun disk, the moon
 * (lit by its phase, with maria), stars in resolution-aware layers and the Milky Way
 * (aurora.ts adds the aurora). All are functions of the 3D direction.
 */
import { directionOfDegrees } from "../../../../api/panorama/panorama-directions.ts";
import { fbm3, hash3, noise3 } from "../../math/noise.ts";
import type { SceneSpec } from "../scene-spec.ts";

/**
 * Peak radiance of the sun disk as the display shows it. The HDR radiance replaces it with
 * the disk that carries the sun's real irradiance (sun-energy.ts), which the display
 * could not show anyway: both are far past white.
 */
export const SUN_DISK = 150;
/** Colour of the displayed disk (before the atmosphere). */
export const SUN_DISK_COLOUR = [1, 0.97, 0.92] as const;
const MOON_DISK = 0.5;
const DEG = Math.PI / 180;

export interface CelestialParams {
  sx: number;
  sy: number;
  sz: number;
  sunVisible: boolean;
  sunRadius: number;
  /** Cosine of the angle from the sun (moon) beyond which the disk adds nothing. */
  sunReach: number;
  mx: number;
  my: number;
  mz: number;
  moonVisible: boolean;
  moonRadius: number;
  moonReach: number;
  /** Moon disk frame (two tangents) and the direction its light comes from. */
  mu: Float64Array;
  mv: Float64Array;
  moonLight: Float64Array;
  stars: number;
  /** Star layers used at this resolution: [cells per unit, probability, brightness]. */
  starLayers: number[][];
  /** Average of the layers too fine to draw, added as a faint glow. */
  starGlow: number;
  milkyWay: number;
  gx: number;
  gy: number;
  gz: number;
  aurora: number;
  pixelAngle: number;
  /** Brightness of stars and Milky Way (brighter in open space, exposed at 1). */
  starGain: number;
  milkyGain: number;
}

const STAR_LAYERS = [
  [10, 0.45, 1.0],
  [24, 0.5, 0.35],
  [55, 0.5, 0.12],
  [120, 0.5, 0.05],
  [260, 0.5, 0.02],
];

export function prepareCelestial(scene: SceneSpec, width: number): CelestialParams {
  const pixelAngle = (2 * Math.PI) / width;
  const [sx, sy, sz] = directionOfDegrees(scene.sun.azimuth, scene.sun.elevation);
  const [mx, my, mz] = directionOfDegrees(scene.moon.azimuth, scene.moon.elevation);
  const up = Math.abs(my) > 0.95 ? [1, 0, 0] : [0, 1, 0];
  const mu = normalize(cross(up, [mx, my, mz]));
  const mv = cross([mx, my, mz], mu);
  const phaseAngle = (1 - scene.moon.phase) * Math.PI;
  const moonLight = normalize([
    -mx * Math.cos(phaseAngle) + mu[0]! * Math.sin(phaseAngle),
    -my * Math.cos(phaseAngle) + mu[1]! * Math.sin(phaseAngle),
    -mz * Math.cos(phaseAngle) + mu[2]! * Math.sin(phaseAngle),
  ]);
  const layers = STAR_LAYERS.filter(([n]) => 1 / n! > 6 * pixelAngle);
  const glow = STAR_LAYERS.filter(([n]) => 1 / n! <= 6 * pixelAngle).reduce((s, [, p, b]) => s + p! * b! * 0.01, 0);
  const [gx, gy, gz] = directionOfDegrees((scene.seed % 360) - 180, 35 + (scene.seed % 40));
  const sunRadius = Math.max(0.6 * DEG, 1.3 * pixelAngle);
  const sunReach = sunRadius + 2 * pixelAngle;
  const moonRadius = Math.max(1.5 * DEG, 3 * pixelAngle);
  return {
    sx,
    sy,
    sz,
    sunVisible: scene.sun.visible,
    sunRadius,
    sunReach: 1 - (sunReach * sunReach) / 2,
    mx,
    my,
    mz,
    moonVisible: scene.moon.visible,
    moonRadius,
    moonReach: Math.cos(moonRadius * 4),
    mu: Float64Array.from(mu),
    mv: Float64Array.from(mv),
    moonLight: Float64Array.from(moonLight),
    stars: scene.stars,
    starLayers: layers,
    starGlow: glow,
    milkyWay: scene.milkyWay,
    gx,
    gy,
    gz,
    aurora: scene.aurora,
    pixelAngle,
    starGain: scene.relief === "none" ? 1.5 : 0.3,
    milkyGain: scene.relief === "none" ? 0.06 : 0.01,
  };
}

/** Coverage (anti-aliased) and limb darkening of the last `onDisk` pixel. */
const diskAt = { cover: 0, limb: 0 };

function onDisk(C: CelestialParams, dx: number, dy: number, dz: number): boolean {
  if (!C.sunVisible) return false;
  const cosG = dx * C.sx + dy * C.sy + dz * C.sz;
  if (cosG < C.sunReach) return false;
  const ang = Math.sqrt(Math.max(0, 2 * (1 - cosG)));
  const cover = Math.min(1, Math.max(0, (C.sunRadius - ang) / C.pixelAngle + 0.5));
  if (cover <= 0) return false;
  const r = Math.min(1, ang / C.sunRadius);
  diskAt.cover = cover;
  diskAt.limb = 1 - 0.45 * (1 - Math.sqrt(1 - r * r));
  return true;
}

/** How much of the sun's disk pixel (dx, dy, dz) shows: coverage times limb darkening, 0 off the disk. */
export function sunWeight(C: CelestialParams, dx: number, dy: number, dz: number): number {
  return onDisk(C, dx, dy, dz) ? diskAt.cover * diskAt.limb : 0;
}

/** Adds the displayed sun disk (limb-darkened, anti-aliased) to out; returns its `sunWeight`. */
export function addSun(C: CelestialParams, dx: number, dy: number, dz: number, out: Float64Array): number {
  if (!onDisk(C, dx, dy, dz)) return 0;
  const v = SUN_DISK * diskAt.cover * diskAt.limb;
  out[0]! += v;
  out[1]! += v * SUN_DISK_COLOUR[1];
  out[2]! += v * SUN_DISK_COLOUR[2];
  return diskAt.cover * diskAt.limb;
}

/** Adds the moon disk; returns its coverage (0..1) so stars behind it can be hidden. */
export function addMoon(C: CelestialParams, dx: number, dy: number, dz: number, out: Float64Array): number {
  if (!C.moonVisible) return 0;
  const cosG = dx * C.mx + dy * C.my + dz * C.mz;
  const rr = C.moonRadius;
  if (cosG < C.moonReach) return 0;
  const sinR = Math.sin(rr);
  const a = (dx * C.mu[0]! + dy * C.mu[1]! + dz * C.mu[2]!) / sinR;
  const b = (dx * C.mv[0]! + dy * C.mv[1]! + dz * C.mv[2]!) / sinR;
  const r2 = a * a + b * b;
  // A soft halo of moonlight scattered around the disk.
  const halo = 0.012 * Math.exp(-Math.sqrt(r2) * 0.9);
  out[0]! += halo * 0.8;
  out[1]! += halo * 0.9;
  out[2]! += halo;
  const edge = (1 - Math.sqrt(r2)) * (rr / C.pixelAngle);
  const cover = Math.min(1, Math.max(0, edge + 0.5));
  if (cover <= 0) return 0;
  const c = Math.sqrt(Math.max(0, 1 - r2));
  const nx = a * C.mu[0]! + b * C.mv[0]! - c * C.mx;
  const ny = a * C.mu[1]! + b * C.mv[1]! - c * C.my;
  const nz = a * C.mu[2]! + b * C.mv[2]! - c * C.mz;
  const lit = Math.max(0, nx * C.moonLight[0]! + ny * C.moonLight[1]! + nz * C.moonLight[2]!);
  const maria = 0.72 + 0.28 * fbm3(nx * 3 + 7, ny * 3, nz * 3, 4);
  const v = (MOON_DISK * Math.pow(lit, 0.8) * maria + 0.004) * cover;
  out[0]! += v * 0.95;
  out[1]! += v * 0.97;
  out[2]! += v;
  return cover;
}

/** Adds stars scaled by `visibility` (0 in daylight or behind clouds). */
export function addStars(C: CelestialParams, dx: number, dy: number, dz: number, visibility: number, out: Float64Array): void {
  const vis = visibility * C.stars;
  if (vis <= 0.001) return;
  let r = C.starGlow;
  let g = C.starGlow;
  let b = C.starGlow * 1.1;
  const sigma = 0.75 * C.pixelAngle;
  const layers = C.starLayers;
  for (let l = 0; l < layers.length; l++) {
    const layer = layers[l]!;
    const n = layer[0]!;
    const px = dx * n;
    const py = dy * n;
    const pz = dz * n;
    const ix = Math.floor(px);
    const iy = Math.floor(py);
    const iz = Math.floor(pz);
    if (hash3(ix, iy, iz, l) > layer[1]!) continue;
    let sx = ix + 0.25 + 0.5 * hash3(ix, iy, iz, l + 11);
    let sy = iy + 0.25 + 0.5 * hash3(ix, iy, iz, l + 23);
    let sz = iz + 0.25 + 0.5 * hash3(ix, iy, iz, l + 37);
    const len = Math.sqrt(sx * sx + sy * sy + sz * sz) / n;
    sx /= len;
    sy /= len;
    sz /= len;
    // A star belongs to the cell its own direction falls in, away from the cell walls.
    const fx = sx - ix;
    const fy = sy - iy;
    const fz = sz - iz;
    if (fx < 0.2 || fx > 0.8 || fy < 0.2 || fy > 0.8 || fz < 0.2 || fz > 0.8) continue;
    const ex = (px - sx) / n;
    const ey = (py - sy) / n;
    const ez = (pz - sz) / n;
    const d2 = (ex * ex + ey * ey + ez * ez) / (sigma * sigma);
    if (d2 > 9) continue;
    const h = hash3(ix, iy, iz, l + 51);
    const bright = layer[2]! * (0.12 + h * h * h * h * 2) * Math.exp(-d2);
    const temp = hash3(ix, iy, iz, l + 77);
    r += bright * (temp < 0.3 ? 0.75 : temp > 0.85 ? 1.15 : 1);
    g += bright * (temp < 0.3 ? 0.85 : temp > 0.85 ? 0.92 : 1);
    b += bright * (temp < 0.3 ? 1.2 : temp > 0.85 ? 0.7 : 1);
  }
  const k = vis * C.starGain;
  out[0]! += r * k;
  out[1]! += g * k;
  out[2]! += b * k;
}

/**
 * Adds the Milky Way as seen with full visibility (the sky multiplies it by its
 * visibility times `C.stars`, as it does the stars). A smooth band: the render computes
 * it at reduced resolution.
 */
export function addMilkyWay(C: CelestialParams, dx: number, dy: number, dz: number, out: Float64Array): void {
  if (C.milkyWay <= 0) return;
  const h = dx * C.gx + dy * C.gy + dz * C.gz;
  if (h * h > 0.09) return;
  const warp = 0.06 * fbm3(dx * 3, dy * 3, dz * 3, 3);
  const hw = h + warp;
  const band = Math.exp(-(hw * hw) / 0.01);
  const c = 0.5 + 0.5 * fbm3(dx * 7 + 5, dy * 7, dz * 7, 6);
  const clumps = c * c * 1.8;
  const lane = Math.exp(-((hw + 0.025 * noise3(dx * 11, dy * 11, dz * 11)) ** 2) / 0.0004) * (0.5 + 0.5 * noise3(dx * 5, dy * 5, dz * 5));
  const v = band * clumps * (1 - 0.85 * lane) * C.milkyGain * C.milkyWay;
  out[0]! += v * 0.95;
  out[1]! += v * 0.9;
  out[2]! += v * 1.05;
}

function cross(a: number[], b: number[]): number[] {
  return [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];
}

function normalize(a: number[]): number[] {
  const l = Math.hypot(a[0]!, a[1]!, a[2]!) || 1;
  return [a[0]! / l, a[1]! / l, a[2]! / l];
}
