/**
 * The ground as a heightfield y = h(x, z) in metres around the camera at the origin:
 * the relief of the scene (hills, eroded mountains, dunes, terraced canyon, flat sea bed),
 * faded in with distance so the camera looks over a valley, a flat spot under the camera,
 * a flattened disk for a city, a forest canopy, and the skyline of a control image.
 * `terrainHeight` also writes the gradient into `tg` (for normals).
 */
import { nd, noise2 } from "./noise.ts";
import { smoothstep } from "./scalar.ts";
import type { SceneSpec } from "./scene-spec.ts";
import { fg, fractalGrad } from "./terrain-noise.ts";

export const RELIEF = { none: 0, flat: 1, hills: 2, mountains: 3, dunes: 4, canyon: 5 } as const;

export interface TerrainParams {
  kind: number;
  amp: number;
  invL: number;
  ox: number;
  oz: number;
  /** Height of the flat top the camera stands on, its radius and the initial slope around it. */
  ground: number;
  camY: number;
  r0: number;
  summitSlope: number;
  /** The relief grows from 0 at envStart to full at envEnd (a valley around the camera). */
  envStart: number;
  envEnd: number;
  floor: number;
  /** Upper bound of h anywhere (for the march's early exit) and a bound on |slope|. */
  maxHeight: number;
  slope: number;
  maxOctaves: number;
  /** Base wavelength in metres (for level of detail). */
  wavelength: number;
  /** Octave count from which tree canopies (~7 m) are resolved. */
  canopyOctave: number;
  water: number;
  cityRadius: number;
  forest: boolean;
  /** Control skyline: target heights above floor at controlRadius, around 360 degrees. */
  control: Float64Array | null;
  controlRadius: number;
  /** How far the march goes. */
  maxDistance: number;
}

/** Gradient (d/dx, d/dz) of the last terrainHeight call. */
export const tg = new Float64Array(2);

export function prepareTerrain(scene: SceneSpec, octaveBias: number): TerrainParams {
  const kind = RELIEF[scene.relief];
  const amp = scene.reliefHeight * (scene.control ? 0.35 : 1);
  const wavelength = { 0: 1000, 1: 400, 2: 1400, 3: 2600, 4: 1500, 5: 2600 }[kind]!;
  const camY = scene.camera.ground + scene.camera.eye;
  const controlRadius = 7000;
  const control = scene.control ? controlHeights(scene.control.profile, camY, controlRadius) : null;
  const controlMax = control ? Math.max(0, ...control) : 0;
  const floor = kind === RELIEF.flat ? (scene.water ? -8 : 0) : 0;
  const maxHeight = Math.max(floor + amp * (kind === RELIEF.mountains ? 2.7 : 1.3) + 30, scene.camera.ground + 5, controlMax + amp + 60);
  const forest = scene.cover === "forest" || scene.cover === "autumn";
  return {
    kind,
    amp,
    invL: 1 / wavelength,
    ox: (scene.seed % 613) * 1.37,
    oz: (scene.seed % 617) * 2.11,
    ground: scene.camera.ground,
    camY,
    r0: { 0: 4, 1: 2, 2: 4, 3: 4, 4: 3, 5: 5 }[kind]!,
    summitSlope: scene.city ? 0.6 : { 0: 0.2, 1: 0.6, 2: 0.5, 3: 1.1, 4: 0.35, 5: 1.2 }[kind]!,
    envStart: kind === RELIEF.mountains ? 700 : kind === RELIEF.canyon ? 0 : 60,
    envEnd: kind === RELIEF.mountains ? 4500 : kind === RELIEF.canyon ? 1 : 900,
    floor,
    maxHeight: maxHeight + (forest ? 14 : 0),
    slope: { 0: 0.2, 1: 0.3, 2: 0.6, 3: 1.2, 4: 1.0, 5: 2.5 }[kind]!,
    maxOctaves: Math.max(3, (kind === RELIEF.mountains ? 11 : 9) + scene.detail + octaveBias),
    wavelength,
    canopyOctave: 1 + Math.log2(wavelength / 10.5),
    water: scene.water ? scene.water.level : -Infinity,
    cityRadius: scene.city ? 3600 : 0,
    forest,
    control,
    controlRadius,
    maxDistance: kind === RELIEF.mountains || control ? 70000 : 30000,
  };
}

function controlHeights(profile: number[], camY: number, radius: number): Float64Array {
  const out = new Float64Array(profile.length);
  for (let i = 0; i < profile.length; i++) {
    const elev = profile[i]!;
    out[i] = elev > 0.2 ? camY + radius * Math.tan((Math.min(elev, 60) * Math.PI) / 180) : 0;
  }
  return out;
}

/** Octaves worth evaluating for a surface at distance r seen with the given pixel angle. */
export function terrainOctaves(T: TerrainParams, r: number, pixelAngle: number): number {
  const o = Math.log2(T.wavelength / (r * pixelAngle * 1.5 + 0.05)) + 1;
  return o < 2 ? 2 : o > T.maxOctaves ? T.maxOctaves : o;
}

/** Height at (x, z) with the given octaves; gradient into `tg`. */
export function terrainHeight(T: TerrainParams, x: number, z: number, octaves: number): number {
  const r = Math.sqrt(x * x + z * z) + 1e-6;
  let h: number;
  let gx: number;
  let gz: number;
  if (r <= T.envStart) {
    // Inside the valley around the camera the relief is faded out entirely.
    h = T.floor;
    gx = 0;
    gz = 0;
  } else {
    h = relief(T, x, z, octaves);
    gx = tg[0]!;
    gz = tg[1]!;
  }
  // Fade the relief in with distance: the camera looks out over a valley.
  if (r < T.envEnd && r > T.envStart) {
    const e = smoothstep(T.envStart, T.envEnd, r);
    const de = envelopeSlope(T.envStart, T.envEnd, r);
    const rel = h - T.floor;
    gx = gx * e + (rel * de * x) / r;
    gz = gz * e + (rel * de * z) / r;
    h = T.floor + rel * e;
  }
  if (T.cityRadius > 0 && r < T.cityRadius * 1.4) {
    const c = 1 - smoothstep(T.cityRadius, T.cityRadius * 1.4, r);
    const dc = -envelopeSlope(T.cityRadius, T.cityRadius * 1.4, r);
    gx = gx * (1 - c) - (h * dc * x) / r;
    gz = gz * (1 - c) - (h * dc * z) / r;
    h *= 1 - c;
  }
  tg[0] = gx;
  tg[1] = gz;
  if (T.forest) h += canopy(T, x, z, r, h, octaves - T.canopyOctave);
  if (T.control) h = addControlRidge(T, x, z, r, h, tg[0]!, tg[1]!);
  gx = tg[0]!;
  gz = tg[1]!;
  return summit(T, x, z, r, h, gx, gz);
}

/**
 * The camera stands on a small flat top whose flanks drop away (initially at summitSlope)
 * toward 50 m below the floor: the terrain is the smooth union of that summit and the relief.
 */
function summit(T: TerrainParams, x: number, z: number, r: number, h: number, gx: number, gz: number): number {
  if (r <= T.r0) {
    tg[0] = 0;
    tg[1] = 0;
    return T.ground;
  }
  const depth = T.ground - T.floor + 50;
  const e = Math.exp((-(r - T.r0) * T.summitSlope) / depth);
  const top = T.ground - depth * (1 - e);
  const dTop = -T.summitSlope * e;
  const d = h - top;
  if (d > 40) {
    tg[0] = gx;
    tg[1] = gz;
    return h;
  }
  const q = Math.sqrt(d * d + 16);
  const a = 0.5 * (1 + d / q);
  tg[0] = a * gx + ((1 - a) * dTop * x) / r;
  tg[1] = a * gz + ((1 - a) * dTop * z) / r;
  return 0.5 * (h + top + q);
}

function envelopeSlope(a: number, b: number, r: number): number {
  if (r <= a || r >= b) return 0;
  const t = (r - a) / (b - a);
  return (6 * t * (1 - t)) / (b - a);
}

function relief(T: TerrainParams, x: number, z: number, octaves: number): number {
  switch (T.kind) {
    case RELIEF.mountains: {
      const v = fractalGrad(x, z, T.invL, T.ox, T.oz, octaves, true);
      // Soft max(v + 0.12, 0) gives broad flat valleys between the peaks; the quadratic
      // term makes the highest peaks stand out.
      const s = v + 0.12;
      const q = Math.sqrt(s * s + 0.004);
      const sp = 0.5 * (s + q);
      const dsp = 0.5 * (1 + s / q);
      const k = T.amp * 2.2;
      const dh = k * dsp * (0.6 + 2 * sp);
      tg[0] = dh * fg[0]!;
      tg[1] = dh * fg[1]!;
      return T.floor + k * sp * (0.6 + sp);
    }
    case RELIEF.hills: {
      const v = fractalGrad(x, z, T.invL, T.ox, T.oz, octaves, false);
      tg[0] = T.amp * 1.4 * fg[0]!;
      tg[1] = T.amp * 1.4 * fg[1]!;
      return T.floor + T.amp * (0.45 + 1.4 * v);
    }
    case RELIEF.dunes:
      return dunes(T, x, z, octaves);
    case RELIEF.canyon:
      return canyon(T, x, z, octaves);
    default: {
      const v = fractalGrad(x, z, 1 / 90, T.ox, T.oz, Math.min(octaves, 6), false);
      tg[0] = 3 * fg[0]!;
      tg[1] = 3 * fg[1]!;
      return T.floor + 3 * v;
    }
  }
}

function dunes(T: TerrainParams, x: number, z: number, octaves: number): number {
  const big = fractalGrad(x, z, 1 / 2500, T.ox, T.oz, Math.min(octaves, 4), false);
  let gx = T.amp * 1.2 * fg[0]!;
  let gz = T.amp * 1.2 * fg[1]!;
  let h = T.amp * (0.6 + 1.2 * big);
  const warp = 45 * noise2(x / 380 + T.ox, z / 380);
  const mod = 0.55 + 0.45 * noise2(x / 1100 - T.oz, z / 1100);
  for (let k = 0; k < 2; k++) {
    const ang = k === 0 ? 0.5 : 1.4;
    const lambda = k === 0 ? 140 : 330;
    const a = T.amp * (k === 0 ? 0.55 : 0.4) * mod;
    const cs = Math.cos(ang);
    const sn = Math.sin(ang);
    const t = (x * cs + z * sn + warp * (k + 1)) / lambda;
    const f = t - Math.floor(t);
    // Gentle windward slope up to a sharp crest, then the steep slip face.
    const p = f < 0.78 ? f / 0.78 : (1 - f) / 0.22;
    const dp = (f < 0.78 ? 1 / 0.78 : -1 / 0.22) / lambda;
    const shaped = p * p * (1.5 - 0.5 * p);
    const dshaped = (3 * p - 1.5 * p * p) * dp;
    h += a * shaped;
    gx += a * dshaped * cs;
    gz += a * dshaped * sn;
  }
  tg[0] = gx;
  tg[1] = gz;
  return h;
}

function canyon(T: TerrainParams, x: number, z: number, octaves: number): number {
  // The canyon opens around the camera; mesas and far rims rise beyond.
  const r = Math.sqrt(x * x + z * z) + 1e-6;
  const open = 0.7 * (1 - smoothstep(300, 2200, r));
  const dOpen = -0.7 * envelopeSlope(300, 2200, r);
  const v = fractalGrad(x, z, T.invL, T.ox, T.oz, Math.min(octaves, 7), false) - open;
  const vx = fg[0]! - (dOpen * x) / r;
  const vz = fg[1]! - (dOpen * z) / r;
  // m: 1 on mesa tops, 0 on the canyon floor; three terraced steps between.
  const a = -0.1;
  const b = 0.08;
  const m = smoothstep(a, b, v);
  const dm = envelopeSlope(a, b, v);
  const steps = m * 3;
  const i = Math.floor(steps);
  const f = steps - i;
  const riser = smoothstep(0.55, 1, f);
  const terrace = (Math.min(i, 3) + (i >= 3 ? 0 : riser)) / 3;
  const dterrace = i >= 3 ? 0 : envelopeSlope(0.55, 1, f) * 3 * dm;
  const detail = fractalGrad(x, z, 1 / 120, T.oz, T.ox, Math.max(1, octaves - 4), true);
  tg[0] = T.amp * dterrace * vx + 6 * fg[0]!;
  tg[1] = T.amp * dterrace * vz + 6 * fg[1]!;
  return T.floor + T.amp * terrace + 6 * detail;
}

/** Tree canopy bumps (m), faded in with the level of detail and out on steep/high ground. */
function canopy(T: TerrainParams, x: number, z: number, r: number, h: number, lodOctaves: number): number {
  const lod = lodOctaves <= 0 ? 0 : lodOctaves >= 1 ? 1 : lodOctaves;
  const treeline = T.kind === RELIEF.mountains ? T.amp * 0.45 : 1e9;
  const mask = (1 - smoothstep(treeline * 0.8, treeline, h)) * smoothstep(30, 90, r) * (h > T.water + 1 ? 1 : 0);
  if (mask <= 0) return 0;
  if (lod === 0) return 9 * mask * 0.45;
  const n = noise2(x / 7 + 0.5, z / 7);
  const bump = Math.max(0, n + 0.3);
  const k = 9 * mask;
  tg[0]! += k * lod * (n > -0.3 ? nd[1]! / 7 : 0);
  tg[1]! += k * lod * (n > -0.3 ? nd[2]! / 7 : 0);
  return k * (lod * bump + (1 - lod) * 0.45);
}

function addControlRidge(T: TerrainParams, x: number, z: number, r: number, h: number, gx: number, gz: number): number {
  const prof = T.control!;
  const n = prof.length;
  const az = Math.atan2(x, -z);
  const s = ((az / (2 * Math.PI) + 0.5) * n - 0.5 + n) % n;
  const i = Math.floor(s);
  const f = s - i;
  const a = prof[i % n]!;
  const b = prof[(i + 1) % n]!;
  const target = a + (b - a) * f;
  const dTargetDaz = ((b - a) * n) / (2 * Math.PI);
  const w = (r - T.controlRadius) / 1800;
  const bump = Math.exp(-w * w);
  const dbump = (-2 * w * bump) / 1800;
  const ridge = T.floor + (target - T.floor) * bump;
  const rgx = (target - T.floor) * dbump * (x / r) + bump * dTargetDaz * (-z / (r * r));
  const rgz = (target - T.floor) * dbump * (z / r) + bump * dTargetDaz * (x / (r * r));
  // Smooth max of the relief and the ridge.
  const d = h - ridge;
  const q = Math.sqrt(d * d + 400);
  const sa = 0.5 * (1 + d / q);
  tg[0] = sa * gx + (1 - sa) * rgx;
  tg[1] = sa * gz + (1 - sa) * rgz;
  return 0.5 * (h + ridge + q);
}
