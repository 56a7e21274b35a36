/**
 * Building surfaces: facade materials per building, a window grid (glass reflecting the
 * sky by day, lit rooms at dusk and night), darker roofs. Each pixel shows the share of
 * its footprint that is window (box-filtered), and the detail fades to its average once a
 * window is smaller than a pixel. A look drawn in flat cells (low-poly's facets) gets flat
 * faces instead: each face of a building one colour, its windows' average, with a share
 * of them lit that differs from face to face, so that a cell shows a lit or a dark face
 * rather than whichever window or wall its site happens to fall on.
 */
import { type CityParams, cityFace } from "./city.ts";
import { hash3 } from "../../math/noise.ts";
import { atmosphere, type SkyParams } from "../sky/sky.ts";

const FACADES = [
  [0.26, 0.25, 0.23],
  [0.08, 0.1, 0.13],
  [0.3, 0.17, 0.11],
  [0.45, 0.45, 0.43],
  [0.12, 0.13, 0.12],
];
const tmp = new Float64Array(3);

export interface CityLook {
  /** 0 = day, 1 = night: how many windows glow and how much. */
  night: number;
  /** Neon palette for lit windows and roof edges. */
  neon: boolean;
  pixelAngle: number;
  /** Each face one colour (no window grid), lit or dark as a whole. */
  flatFaces: boolean;
}

/** Share of flat faces whose rooms are mostly lit, and the lit share of windows on them and on the others. */
const LIT_FACES = 0.3;
const LIT_FACE_WINDOWS = 0.75;
const DARK_FACE_WINDOWS = 0.04;

export function shadeBuilding(
  C: CityParams,
  S: SkyParams,
  L: CityLook,
  px: number,
  py: number,
  pz: number,
  dist: number,
  dx: number,
  dy: number,
  dz: number,
  out: Float64Array,
): void {
  const k = cityFace.lot;
  const i = k % C.n;
  const j = (k / C.n) | 0;
  const kind = (hash3(i, j, 7, C.seed) * FACADES.length) | 0;
  const base = FACADES[kind]!;
  const nx = cityFace.axis === 0 ? cityFace.sign : 0;
  const ny = cityFace.axis === 1 ? cityFace.sign : 0;
  const nz = cityFace.axis === 2 ? cityFace.sign : 0;
  const ndl = Math.max(0, nx * S.lx + ny * S.ly + nz * S.lz);
  const amb = 0.55 + 0.25 * ny + 0.1 * (nx * 0.3 - nz * 0.2);
  for (let c = 0; c < 3; c++) out[c] = (base[c]! / Math.PI) * (S.direct[c]! * ndl + S.ambient[c]! * amb);
  if (ny !== 0) return;
  const u = cityFace.axis === 0 ? pz : px;
  const footprint = dist * L.pixelAngle;
  const floorH = 3.6;
  const winW = 2.6 + kind * 0.4;
  const cu = u / winW;
  const cv = py / floorH;
  // The share of the pixel's footprint on the facade (wider across a facade seen at a
  // slant) that is window: a window a pixel or two wide covers part of the pixels it
  // touches, rather than lighting whole pixels as bricks.
  const across = footprint / Math.max(0.2, Math.abs(dx * nx + dz * nz));
  const inWindow = py > 3 ? boxedPulse(cu, across / winW, 0.18, 0.82) * boxedPulse(cv, footprint / floorH, 0.28, 0.86) : 0;
  const detail = L.flatFaces ? 0 : Math.min(1, Math.max(0, (floorH / footprint - 1) / 2));
  const coverage = detail * inWindow + (1 - detail) * 0.37;
  // Glass: reflects the sky (Fresnel-ish, stronger at grazing angles).
  const cosV = Math.abs(dx * nx + dz * nz);
  const fres = 0.08 + 0.5 * Math.pow(1 - cosV, 4);
  atmosphere(S, dx - 2 * nx * (dx * nx), Math.abs(dy) + 0.05, dz - 2 * nz * (dz * nz), tmp);
  const lit = hash3(Math.floor(cu) + i * 131, Math.floor(cv), j, C.seed) < 0.3 ? 1 : 0;
  const glow = L.night * (detail * lit + (1 - detail) * (L.flatFaces ? flatFaceLit(C, i, j) : 0.3)) * 0.045;
  const neonHue = hash3(i, j, 9, C.seed);
  for (let c = 0; c < 3; c++) {
    const roomLight = L.neon ? (neonHue < 0.5 ? [1, 0.1, 0.8] : [0.1, 0.9, 1])[c]! : [1, 0.72, 0.42][c]!;
    const glass = tmp[c]! * fres * 0.8 + 0.01 * S.ambient[c]! + glow * roomLight;
    out[c] = out[c]! * (1 - coverage) + glass * coverage;
  }
  if (L.neon) {
    // Glowing roof edges.
    const top = C.heights[k]!;
    const e = Math.exp(-Math.abs(py - top) / Math.max(0.8, footprint));
    out[0]! += e * (neonHue < 0.5 ? 0.3 : 0.02);
    out[1]! += e * (neonHue < 0.5 ? 0.03 : 0.25);
    out[2]! += e * 0.3;
  }
}

/** The lit share of the windows of the current face (cityFace) of lot (i, j), for flat faces. */
function flatFaceLit(C: CityParams, i: number, j: number): number {
  const face = cityFace.axis * 2 + (cityFace.sign > 0 ? 1 : 0);
  return hash3(i * 4 + face, j, 11, C.seed) < LIT_FACES ? LIT_FACE_WINDOWS : DARK_FACE_WINDOWS;
}

/**
 * Mean over [x - w / 2, x + w / 2] of a pulse that is 1 on [a, b] of every unit cell
 * (the window's share of a box footprint w cells wide centred at x).
 */
function boxedPulse(x: number, w: number, a: number, b: number): number {
  if (w < 1e-6) {
    const f = x - Math.floor(x);
    return f > a && f < b ? 1 : 0;
  }
  return (pulseIntegral(x + w / 2, a, b) - pulseIntegral(x - w / 2, a, b)) / w;
}

/** Integral from 0 to x of the pulse of boxedPulse. */
function pulseIntegral(x: number, a: number, b: number): number {
  const cell = Math.floor(x);
  const f = x - cell;
  return cell * (b - a) + (f < a ? 0 : f > b ? b - a : f - a);
}
