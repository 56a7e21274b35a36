/**
 * Space objects: emission nebulae (domain-warped 3D noise on the direction, with dark dust
 * lanes) and planets (exact ray-sphere hits, textured by kind, with rings and an
 * atmosphere rim). Planets are real spheres at large distances so depth stays exact.
 */
import { directionOfDegrees } from "../../../../api/panorama/panorama-directions.ts";
import { fbm3, noise3 } from "../../math/noise.ts";
import { smoothstep } from "../../math/scalar.ts";
import type { Rgb, SceneSpec } from "../scene-spec.ts";

export interface PlanetParams {
  cx: number;
  cy: number;
  cz: number;
  distance: number;
  radius: number;
  angularRadius: number;
  kind: number;
  c1: Rgb;
  c2: Rgb;
  rings: boolean;
  rnx: number;
  rny: number;
  rnz: number;
}

export interface SpaceParams {
  nebula: boolean;
  n1: Rgb;
  n2: Rgb;
  nebulaGain: number;
  planets: PlanetParams[];
  planetGain: number;
  /** Light direction on planets (the sun). */
  lx: number;
  ly: number;
  lz: number;
  pixelAngle: number;
  octaves: number;
}

const KINDS = { rocky: 0, gas: 1, ice: 2, lava: 3 } as const;

export function prepareSpace(scene: SceneSpec, width: number): SpaceParams {
  const open = scene.relief === "none";
  // In open space planets are lit from the side (a crescent or half phase reads as a sphere).
  const first = scene.planets[0];
  const [lx, ly, lz] =
    open && first
      ? directionOfDegrees(first.azimuth - 105, first.elevation + 25)
      : directionOfDegrees(scene.sun.azimuth, Math.max(scene.sun.elevation, 10));
  const neb = scene.nebula;
  return {
    nebula: neb !== null,
    n1: neb ? hueColor(neb.hue, 0.85) : [0, 0, 0],
    n2: neb ? hueColor(neb.hue2, 0.7) : [0, 0, 0],
    nebulaGain: neb ? neb.intensity * (open ? 0.35 : 0.02) : 0,
    planets: scene.planets.map((p, i) => {
      const [cx, cy, cz] = directionOfDegrees(p.azimuth, p.elevation);
      const distance = 4e5 + i * 1.5e5;
      const rad = (p.radius * Math.PI) / 180;
      // Rings: a plane through the planet seen at a slant, tilted 12-35 degrees toward us.
      const tilt = ((p.hue * 23 + 12) * Math.PI) / 180;
      const up = Math.abs(cy) > 0.9 ? [1, 0, 0] : [0, 1, 0];
      const k = up[0]! * cx + up[1]! * cy + up[2]! * cz;
      const ox = up[0]! - k * cx;
      const oy = up[1]! - k * cy;
      const oz = up[2]! - k * cz;
      const ol = Math.hypot(ox, oy, oz);
      const roll = (p.hue - 0.5) * 0.8;
      return {
        cx,
        cy,
        cz,
        distance,
        radius: distance * Math.sin(rad),
        angularRadius: rad,
        kind: KINDS[p.kind],
        c1: hueColor(p.hue, p.kind === "ice" ? 0.25 : 0.55),
        c2: hueColor((p.hue + 0.12) % 1, p.kind === "gas" ? 0.4 : 0.7),
        rings: p.rings,
        rnx: (ox / ol) * Math.cos(tilt) * Math.cos(roll) - cx * Math.sin(tilt),
        rny: (oy / ol) * Math.cos(tilt) - cy * Math.sin(tilt),
        rnz: (oz / ol) * Math.cos(tilt) * Math.cos(roll) - cz * Math.sin(tilt) + Math.sin(roll) * 0.3,
      };
    }),
    planetGain: open ? 1 : 0.8 / scene.exposure,
    lx,
    ly,
    lz,
    pixelAngle: (2 * Math.PI) / width,
    octaves: 5 + scene.detail,
  };
}

/** A saturated linear colour of hue h (0..1). */
export function hueColor(h: number, saturation: number): Rgb {
  const f = (n: number): number => {
    const k = (n + h * 6) % 6;
    return 1 - Math.max(0, Math.min(k, 4 - k, 1));
  };
  const rgb: Rgb = [f(5), f(3), f(1)];
  return rgb.map((c) => Math.pow(1 - saturation + saturation * c, 2.2)) as Rgb;
}

/** Adds nebula emission; returns the dust transmittance for what lies behind. */
export function addNebula(S: SpaceParams, dx: number, dy: number, dz: number, visibility: number, out: Float64Array): number {
  if (!S.nebula || visibility <= 0.001) return 1;
  // Domain-warped clouds with brighter filaments along ridges of a second field.
  const q = fbm3(dx * 1.4 + 3.1, dy * 1.4, dz * 1.4, 4);
  const n = fbm3(dx * 2.1 + q * 1.6, dy * 2.1 + q, dz * 2.1 - q, S.octaves + 1);
  const dens = smoothstep(-0.08, 0.55, n);
  if (dens <= 0) return 1;
  const ridge = 1 - Math.abs(fbm3(dx * 4.5 - q * 2, dy * 4.5 + 1.7, dz * 4.5, S.octaves));
  const filament = Math.pow(ridge, 6);
  const mix = smoothstep(-0.3, 0.3, q + 0.3 * (ridge - 0.5));
  const e = (dens * Math.sqrt(dens) * 0.55 + filament * dens * 0.9) * S.nebulaGain * visibility;
  const core = Math.pow(dens, 4) * 0.35;
  out[0]! += e * (S.n1[0] * (1 - mix) + S.n2[0] * mix + core);
  out[1]! += e * (S.n1[1] * (1 - mix) + S.n2[1] * mix + core);
  out[2]! += e * (S.n1[2] * (1 - mix) + S.n2[2] * mix + core);
  const dust = smoothstep(0.1, 0.45, fbm3(dx * 3.5 - 7, dy * 3.5, dz * 3.5, 4));
  return 1 - 0.85 * dust * dens;
}

/**
 * Shades the nearest planet (or ring) along the direction into out (replacing the
 * background by coverage); returns its distance or Infinity.
 */
export function shadePlanets(S: SpaceParams, dx: number, dy: number, dz: number, out: Float64Array): number {
  let best = Infinity;
  for (let i = 0; i < S.planets.length; i++) {
    const p = S.planets[i]!;
    const cosA = dx * p.cx + dy * p.cy + dz * p.cz;
    if (cosA < Math.cos(p.angularRadius * (p.rings ? 2.6 : 1.05) + 2 * S.pixelAngle)) continue;
    const t = shadeOne(S, p, dx, dy, dz, cosA, out);
    if (t < best) best = t;
  }
  return best;
}

function shadeOne(S: SpaceParams, p: PlanetParams, dx: number, dy: number, dz: number, cosA: number, out: Float64Array): number {
  const D = p.distance;
  const b = cosA * D;
  const disc = b * b - (D * D - p.radius * p.radius);
  const ang = Math.acos(Math.min(1, cosA));
  const cover = Math.min(1, Math.max(0, (p.angularRadius - ang) / S.pixelAngle + 0.5));
  let t = Infinity;
  if (cover > 0) {
    t = disc > 0 ? b - Math.sqrt(disc) : b;
    const nx = (dx * t - p.cx * D) / p.radius;
    const ny = (dy * t - p.cy * D) / p.radius;
    const nz = (dz * t - p.cz * D) / p.radius;
    const lit = Math.max(0, nx * S.lx + ny * S.ly + nz * S.lz);
    const rim = Math.pow(Math.max(0, 1 + (nx * dx + ny * dy + nz * dz)), 4);
    const tex = planetTexture(S, p, nx, ny, nz);
    const g = S.planetGain * 3.2;
    for (let c = 0; c < 3; c++) {
      const albedo = p.c1[c]! * (1 - tex) + p.c2[c]! * tex;
      const emit = p.kind === 3 ? Math.pow(tex, 6) * [1.2, 0.35, 0.05][c]! * 0.8 : 0;
      const v = g * (albedo * (Math.pow(lit, 0.8) + 0.01) + rim * p.c2[c]! * (0.15 + lit) * 0.5) + emit * S.planetGain;
      out[c] = out[c]! * (1 - cover) + v * cover;
    }
  }
  if (p.rings) {
    const denom = dx * p.rnx + dy * p.rny + dz * p.rnz;
    if (Math.abs(denom) > 1e-4) {
      const tr = (D * (p.cx * p.rnx + p.cy * p.rny + p.cz * p.rnz)) / denom;
      const qx = dx * tr - p.cx * D;
      const qy = dy * tr - p.cy * D;
      const qz = dz * tr - p.cz * D;
      const rr = Math.sqrt(qx * qx + qy * qy + qz * qz) / p.radius;
      if (tr > 0 && rr > 1.35 && rr < 2.4 && (tr < t || cover < 1)) {
        const bands = 0.55 + 0.45 * Math.sin(rr * 37 + 3 * noise3(rr * 9, 0.5, 0.5));
        const alpha = bands * smoothstep(1.35, 1.45, rr) * (1 - smoothstep(2.25, 2.4, rr)) * 0.8;
        const front = tr < t;
        const a = front ? alpha : alpha * (1 - cover);
        const g = S.planetGain * 3.2 * 0.6;
        for (let c = 0; c < 3; c++) out[c] = out[c]! * (1 - a) + g * (0.5 + 0.5 * p.c1[c]!) * a;
        if (front && alpha > 0.5) t = tr;
      }
    }
  }
  return t;
}

function planetTexture(S: SpaceParams, p: PlanetParams, nx: number, ny: number, nz: number): number {
  switch (p.kind) {
    case 1:
      return 0.5 + 0.5 * Math.sin(ny * 22 + 2.5 * fbm3(nx * 2, ny * 6, nz * 2, S.octaves));
    case 2:
      return Math.pow(1 - Math.abs(noise3(nx * 6, ny * 6, nz * 6)), 10) * 0.8;
    case 3:
      return 1 - Math.abs(fbm3(nx * 4, ny * 4, nz * 4, S.octaves));
    default:
      return smoothstep(-0.05, 0.1, fbm3(nx * 2.5, ny * 2.5, nz * 2.5, S.octaves));
  }
}

/** Distance to the nearest planet sphere along the direction, or Infinity. */
export function planetDistance(S: SpaceParams, dx: number, dy: number, dz: number): number {
  let best = Infinity;
  for (let i = 0; i < S.planets.length; i++) {
    const p = S.planets[i]!;
    const b = (dx * p.cx + dy * p.cy + dz * p.cz) * p.distance;
    const disc = b * b - (p.distance * p.distance - p.radius * p.radius);
    if (disc < 0 || b <= 0) continue;
    const t = b - Math.sqrt(disc);
    if (t < best) best = t;
  }
  return best;
}
