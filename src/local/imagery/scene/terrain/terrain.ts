/**
 * The ground as a heightfield y = h(x, z) in metres around the camera at the origin:
 * the relief of the scene (hills, eroded mountains, dunes, terraced canyon, flat sea bed),
 * faded in with distance so the camera looks over a valley, a flat spot under the camera,
 * a flattened disk for a city, a forest canopy, and the skyline of a control image.
 * `terrainHeight` also writes the gradient into `tg` (for normals).
 */
import { uOfDirection } from "../../../../api/panorama/panorama-directions.ts";
import { nd, noise2 } from "../../math/noise.ts";
import { smoothstep, smoothstepSlope } from "../../math/scalar.ts";
import type { SceneSpec } from "../scene-spec.ts";
import { RELIEF, relief, setTerrainPoint, tg, tp } from "./terrain-relief.ts";
import { fg, fgWanted, fractalGrad } from "./terrain-noise.ts";

export { RELIEF, tg };

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
  /** Height (m) of the rough relief on the summit's flanks. */
  summitRough: number;
  /** Beyond this distance the summit's flanks have reached their foot (to a micrometre). */
  summitReach: number;
  /** The relief grows from 0 at envStart to full at envEnd (a valley around the camera). */
  envStart: number;
  envEnd: number;
  floor: number;
  /** Upper bound of h anywhere (for the march's early exit) and a bound on |slope|. */
  maxHeight: number;
  slope: number;
  maxOctaves: number;
  /**
   * Octaves added to what the pixel footprint needs: finer than the pixel for Model 4
   * (more so for its enhanced variant), softer for Model 3 and simplifying looks.
   */
  lodBias: number;
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

export function prepareTerrain(scene: SceneSpec, octaveBias: number): TerrainParams {
  const kind = RELIEF[scene.relief];
  const amp = scene.reliefHeight * (scene.control ? 0.35 : 1);
  const wavelength = { 0: 1000, 1: 400, 2: 1400, 3: 2600, 4: 1500, 5: 2600 }[kind];
  const floor = kind === RELIEF.flat ? (scene.water ? -8 : 0) : 0;
  const forest = scene.cover === "forest" || scene.cover === "autumn";
  const T: TerrainParams = {
    kind,
    amp,
    invL: 1 / wavelength,
    ox: (scene.seed % 613) * 1.37,
    oz: (scene.seed % 617) * 2.11,
    ground: scene.camera.ground,
    camY: scene.camera.ground + scene.camera.eye,
    r0: { 0: 4, 1: 2, 2: 4, 3: 4, 4: 3, 5: 5 }[kind],
    summitReach: Infinity,
    summitSlope: scene.city ? 0.6 : { 0: 0.2, 1: 0.6, 2: 0.5, 3: 1.1, 4: 0.35, 5: 1.2 }[kind],
    summitRough: { 0: 0, 1: 1.2, 2: 2, 3: 5, 4: 0.8, 5: 5 }[kind],
    envStart: { 0: 0, 1: 60, 2: 30, 3: 700, 4: 15, 5: 0 }[kind],
    envEnd: { 0: 1, 1: 900, 2: 400, 3: 4500, 4: 120, 5: 1 }[kind],
    floor,
    maxHeight: 0,
    slope: { 0: 0.2, 1: 0.3, 2: 0.6, 3: 1.2, 4: 1.0, 5: 2.5 }[kind],
    maxOctaves: Math.max(3, (kind === RELIEF.mountains ? 11 : 9) + scene.detail + octaveBias),
    lodBias: detailBias(scene.detail) + 0.5 * octaveBias,
    wavelength,
    canopyOctave: 1 + Math.log2(wavelength / 10.5),
    water: scene.water ? scene.water.level : -Infinity,
    cityRadius: scene.city ? 3600 : 0,
    forest,
    control: null,
    controlRadius: 7000,
    maxDistance: kind === RELIEF.mountains || scene.control ? 70000 : 30000,
  };
  if (kind !== RELIEF.none) liftCamera(T, scene.camera.eye);
  // exp(-(r - r0) * slope / depth) * depth < 1e-6 m beyond it (see summitAt).
  const depth = T.ground - T.floor + 50;
  T.summitReach = T.r0 + SHOULDER / 2 + (depth / T.summitSlope) * Math.log(depth * 1e6);
  if (scene.control) T.control = controlHeights(scene.control.profile, T.camY, T.controlRadius);
  const controlMax = T.control ? Math.max(0, ...T.control) : 0;
  T.maxHeight =
    Math.max(floor + amp * (kind === RELIEF.mountains ? 2.7 : 1.3) + 30, T.ground + 5, controlMax + amp + 60) + (forest ? 14 : 0);
  return T;
}

/**
 * Raises the camera's flat top above the ground around it (hills and dunes may rise
 * higher than the scene's nominal camera height), so that the camera always overlooks
 * its surroundings instead of standing in a pit.
 */
function liftCamera(T: TerrainParams, eye: number): void {
  let highest = -Infinity;
  for (const r of [25, 50, 100, 180, 300]) {
    for (let k = 0; k < 16; k++) {
      const a = (k / 16) * 2 * Math.PI;
      highest = Math.max(highest, groundHeight(T, Math.sin(a) * r, -Math.cos(a) * r, 5));
    }
  }
  if (highest + 2 > T.ground) {
    T.ground = highest + 2;
    T.camY = T.ground + eye;
  }
}

/** LOD bias of a detail level (Model 3 = 0, Model 4 standard = 1, enhanced = 2). */
export function detailBias(detail: number): number {
  return 0.8 * detail - 0.6;
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
  const o = Math.log2(T.wavelength / (r * pixelAngle * 1.5 + 0.05)) + 1 + T.lodBias;
  return o < 2 ? 2 : o > T.maxOctaves ? T.maxOctaves : o;
}

/**
 * Height at (x, z) with the given octaves; gradient and height into `tg`. Small enough to
 * be inlined where it is called: the work below reads the point from `tp` (terrain-relief.ts).
 */
export function terrainHeight(T: TerrainParams, x: number, z: number, octaves: number): number {
  setTerrainPoint(x, z, octaves);
  terrainAt(T);
  return tg[2]!;
}

/** terrainHeight without the gradient (tg[0..1] are then meaningless): the column march's. */
export function terrainHeightOnly(T: TerrainParams, x: number, z: number, octaves: number): number {
  fgWanted[0] = 0;
  const h = terrainHeight(T, x, z, octaves);
  fgWanted[0] = 1;
  return h;
}

function terrainAt(T: TerrainParams): void {
  if (tp[3]! <= T.r0) {
    // The camera's flat top hides whatever lies beneath it.
    tg[0] = 0;
    tg[1] = 0;
    tg[2] = T.ground;
    return;
  }
  groundAt(T);
  summitAt(T);
}

/** The ground without the camera's summit at (x, z) (gradient and height into `tg`). */
function groundHeight(T: TerrainParams, x: number, z: number, octaves: number): number {
  setTerrainPoint(x, z, octaves);
  groundAt(T);
  return tg[2]!;
}

function groundAt(T: TerrainParams): void {
  const x = tp[0]!;
  const z = tp[1]!;
  const r = tp[3]!;
  let h: number;
  let gx: number;
  let gz: number;
  if (r <= T.envStart) {
    // Inside the valley around the camera the relief is faded out entirely.
    h = T.floor;
    gx = 0;
    gz = 0;
  } else {
    relief(T);
    h = tg[2]!;
    gx = tg[0]!;
    gz = tg[1]!;
  }
  // Fade the relief in with distance: the camera looks out over a valley.
  if (r < T.envEnd && r > T.envStart) {
    const e = smoothstep(T.envStart, T.envEnd, r);
    const de = smoothstepSlope(T.envStart, T.envEnd, r);
    const rel = h - T.floor;
    gx = gx * e + (rel * de * x) / r;
    gz = gz * e + (rel * de * z) / r;
    h = T.floor + rel * e;
  }
  if (T.cityRadius > 0 && r < T.cityRadius * 1.4) {
    const c = 1 - smoothstep(T.cityRadius, T.cityRadius * 1.4, r);
    const dc = -smoothstepSlope(T.cityRadius, T.cityRadius * 1.4, r);
    gx = gx * (1 - c) - (h * dc * x) / r;
    gz = gz * (1 - c) - (h * dc * z) / r;
    h *= 1 - c;
  }
  tg[0] = gx;
  tg[1] = gz;
  tg[2] = h;
  if (T.forest) addCanopy(T);
  if (T.control) addControlRidge(T);
}

/** Width (m) of the rounded shoulder between the camera's flat top and its flanks. */
const SHOULDER = 6;

/**
 * The camera stands on a small flat top whose flanks drop away (initially at summitSlope)
 * toward 50 m below the floor: the terrain (tg, then) is the smooth union of that summit
 * and the relief.
 */
function summitAt(T: TerrainParams): void {
  const x = tp[0]!;
  const z = tp[1]!;
  const r = tp[3]!;
  const depth = T.ground - T.floor + 50;
  // Far away the flanks are at their foot, 50 m below the floor: most ground is above them.
  if (r > T.summitReach && tg[2]! - (T.ground - depth) > 40) return;
  // Distance down the flank, eased over the shoulder: the slope grows from 0 at the flat
  // top's edge, so its shading (and the ground seen past it) changes over rows, not at one.
  const u = r - T.r0;
  const q = u < SHOULDER ? (u * u) / (2 * SHOULDER) : u - SHOULDER / 2;
  const e = Math.exp((-q * T.summitSlope) / depth);
  const slope = T.summitSlope * e * (u < SHOULDER ? u / SHOULDER : 1);
  let top = T.ground - depth * (1 - e);
  let tx = (-slope * x) / r;
  let tz = (-slope * z) / r;
  const h = tg[2]!;
  const gx = tg[0]!;
  const gz = tg[1]!;
  if (h - top > 40) return;
  // Rocks and hummocks on the summit's flanks (faded in beyond the flat top).
  const ramp = Math.min(1, (r - T.r0) / 8) * T.summitRough;
  if (ramp > 0) {
    const bump = fractalGrad(x, z, 1 / 14, 17.1, 29.3, Math.min(tp[2]! - 3, 6), true);
    top += bump * ramp;
    tx += fg[0]! * ramp;
    tz += fg[1]! * ramp;
  }
  // fractalGrad leaves tg alone: the ground is still there.
  tg[0] = gx;
  tg[1] = gz;
  tg[2] = h;
  tb[0] = tx;
  tb[1] = tz;
  tb[2] = top;
  smoothMax(4);
}

/** Tree canopy bumps (m) added to tg, faded in with the level of detail and out on steep/high ground. */
function addCanopy(T: TerrainParams): void {
  const x = tp[0]!;
  const z = tp[1]!;
  const r = tp[3]!;
  const h = tg[2]!;
  const lodOctaves = tp[2]! - T.canopyOctave;
  const lod = lodOctaves <= 0 ? 0 : lodOctaves >= 1 ? 1 : lodOctaves;
  const treeline = T.kind === RELIEF.mountains ? T.amp * 0.45 : 1e9;
  const mask = (1 - smoothstep(treeline * 0.8, treeline, h)) * smoothstep(30, 90, r) * (h > T.water + 1 ? 1 : 0);
  if (mask <= 0) return;
  if (lod === 0) {
    tg[2] = h + 9 * mask * 0.45;
    return;
  }
  noise2(x / 7 + 0.5, z / 7);
  const n = nd[0]!;
  const bump = Math.max(0, n + 0.3);
  const k = 9 * mask;
  tg[0]! += k * lod * (n > -0.3 ? nd[1]! / 7 : 0);
  tg[1]! += k * lod * (n > -0.3 ? nd[2]! / 7 : 0);
  tg[2] = h + k * (lod * bump + (1 - lod) * 0.45);
}

/** The control image's skyline as a ridge, smoothly united with the ground in tg. */
function addControlRidge(T: TerrainParams): void {
  const x = tp[0]!;
  const z = tp[1]!;
  const r = tp[3]!;
  const prof = T.control!;
  const n = prof.length;
  const s = (uOfDirection(x, z) * n - 0.5 + n) % n;
  const i = Math.floor(s);
  const f = s - i;
  const a = prof[i % n]!;
  const b = prof[(i + 1) % n]!;
  const target = a + (b - a) * f;
  const dTargetDaz = ((b - a) * n) / (2 * Math.PI);
  const w = (r - T.controlRadius) / 1800;
  const bump = Math.exp(-w * w);
  const dbump = (-2 * w * bump) / 1800;
  tb[2] = T.floor + (target - T.floor) * bump;
  tb[0] = (target - T.floor) * dbump * (x / r) + bump * dTargetDaz * (-z / (r * r));
  tb[1] = (target - T.floor) * dbump * (z / r) + bump * dTargetDaz * (x / (r * r));
  smoothMax(20);
}

/** The second surface of smoothMax: gradient (x, z) and height. */
const tb = new Float64Array(3);

/**
 * Smooth maximum of the heights in tg and tb (with their gradients), rounded over about
 * `softness` metres where they meet; into tg.
 */
function smoothMax(softness: number): void {
  const a = tg[2]!;
  const b = tb[2]!;
  const d = a - b;
  const q = Math.sqrt(d * d + softness * softness);
  const w = 0.5 * (1 + d / q);
  tg[0] = w * tg[0]! + (1 - w) * tb[0]!;
  tg[1] = w * tg[1]! + (1 - w) * tb[1]!;
  tg[2] = 0.5 * (a + b + q);
}
