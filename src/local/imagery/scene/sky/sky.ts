/**
 * The atmosphere: single scattering of the dominant light (the sun, or the moon at night)
 * through Rayleigh + Mie + ozone layers, with optical depths from a cheap airmass fit.
 * Radiance is linear and roughly physical in ratio: a noon zenith is ~0.3-0.8, the sun
 * disk (celestial.ts) ~100. Also derives the light and ambient colours surfaces use.
 */
import { directionOfDegrees } from "../../../../api/panorama/panorama-directions.ts";
import type { SceneSpec } from "../scene-spec.ts";

/** Scattering strength of the sun in the sky model. */
const SUN_SKY = 18;
/** Irradiance of the sun on a surface facing it, before atmosphere. */
const SUN_DIRECT = 5;
const MOON_SKY = SUN_SKY * 0.004;
const MOON_DIRECT = SUN_DIRECT * 0.012;
const RAYLEIGH = [0.0465, 0.108, 0.265];
const OZONE = [0.012, 0.03, 0.002];

export interface SkyParams {
  atmosphere: boolean;
  /** Dominant light direction and scattering strength (0 when none). */
  lx: number;
  ly: number;
  lz: number;
  lightSky: number;
  /** Airmass of the light's path (clamped for twilight). */
  lightMass: number;
  tauR: Float64Array;
  tauO: Float64Array;
  tauM: number;
  mieG: number;
  /** Airglow / light-pollution floor of the night sky. */
  floor: Float64Array;
  tint: Float64Array;
  /** Irradiance colour of the dominant light on a surface facing it. */
  direct: Float64Array;
  /** Average sky radiance seen by an upward surface (ambient term). */
  ambient: Float64Array;
  /** Sky colour seen along the horizon (fog/aerial perspective source), per light side. */
  sunIsLight: boolean;
  /** Strength of the golden-hour grade (sun near the horizon). */
  golden: number;
}

export function prepareSky(scene: SceneSpec): SkyParams {
  const atmosphere = scene.relief !== "none";
  const sunUp = scene.sun.elevation > -14;
  const useMoon = !sunUp && scene.moon.elevation > -5 && scene.moon.visible;
  const light = useMoon ? scene.moon : scene.sun;
  const [lx, ly, lz] = directionOfDegrees(light.azimuth, light.elevation);
  const elev = light.elevation;
  // Below the horizon the light still reaches the upper atmosphere for a while (twilight).
  const fade = elev >= 0 ? 1 : Math.max(0, 1 - -elev / 12) ** 2;
  const mu = Math.max(elev, 0) * (Math.PI / 180);
  const sinMu = Math.sin(mu);
  const mass = airmass(sinMu) + (elev < 0 ? -elev * 2.5 : 0);
  const haze = 0.007 + scene.fog * 0.06 + (scene.weather === "storm" || scene.weather === "overcast" ? 0.04 : 0);
  const strength = (useMoon ? MOON_SKY * scene.moon.phase : sunUp ? SUN_SKY : 0) * fade;
  const params: SkyParams = {
    atmosphere,
    lx,
    ly,
    lz,
    lightSky: strength,
    lightMass: mass,
    tauR: Float64Array.from(RAYLEIGH),
    tauO: Float64Array.from(OZONE),
    tauM: haze,
    mieG: 0.76,
    floor: Float64Array.from(scene.time === "night" ? [0.0012, 0.0022, 0.0048] : [0.0004, 0.0007, 0.0014]),
    tint: Float64Array.from(scene.tint),
    direct: new Float64Array(3),
    ambient: new Float64Array(3),
    sunIsLight: !useMoon,
    golden: useMoon ? 0 : Math.max(0, 1 - Math.abs(elev - 2) / 10) * 1.2,
  };
  const directStrength = (useMoon ? MOON_DIRECT * scene.moon.phase : sunUp ? SUN_DIRECT : 0) * (elev > 0 ? 1 : Math.max(0, 1 + elev / 2));
  for (let c = 0; c < 3; c++) {
    const tau = RAYLEIGH[c]! + OZONE[c]! + haze;
    params.direct[c] = directStrength * Math.exp(-tau * airmass(Math.max(sinMu, 0.01))) * scene.tint[c]!;
  }
  measureAmbient(params);
  return params;
}

/** Relative optical path length for a ray with sine of elevation mu (1 at zenith, ~40 at horizon). */
export function airmass(mu: number): number {
  const m = mu > 0 ? mu : 0;
  return 1 / (m + 0.025 * Math.exp(-11 * m));
}

/** Sky radiance (no sun disk, no stars) along a unit direction, into out[0..2]. */
export function atmosphere(S: SkyParams, dx: number, dy: number, dz: number, out: Float64Array): void {
  if (!S.atmosphere) {
    out[0] = out[1] = out[2] = 0;
    return;
  }
  const mu = dy > 0 ? dy : 0;
  const mv = 1 / (mu + 0.025 * Math.exp(-11 * mu));
  const cosG = dx * S.lx + dy * S.ly + dz * S.lz;
  const pr = 0.0597 * (1 + cosG * cosG);
  const g = S.mieG;
  const base = 1 + g * g - 2 * g * cosG;
  const pm = (0.0796 * (1 - g * g)) / (base * Math.sqrt(base));
  // Light reaching high scattering layers (looking up) crosses less air than light
  // reaching the low layers seen along the horizon.
  const w = S.lightMass * (1 - 0.85 * Math.sqrt(Math.sqrt(mu)));
  const tauM = S.tauM;
  const e = S.lightSky;
  const tr = S.tauR;
  const to = S.tauO;
  const fl = S.floor;
  const ti = S.tint;
  // Golden hour: warm the low sky, orange toward the light and rose away from it.
  const glow = S.golden * Math.exp(-mu * 5);
  const side = 0.5 + 0.5 * cosG;
  for (let c = 0; c < 3; c++) {
    const r = tr[c]!;
    const ts = Math.exp(-(r + tauM + to[c]!) * w);
    const scat = (r * pr + tauM * pm) / (r + tauM);
    const grade = 1 + glow * (GOLD[c]! * side + ROSE[c]! * (1 - side));
    out[c] = (e * ts * scat * (1 - Math.exp(-(r + tauM) * mv)) * grade + fl[c]! * (1 + 2 * (1 - mu))) * ti[c]!;
  }
}

const GOLD = [0.35, -0.05, -0.35];
const ROSE = [0.25, -0.15, 0.15];

/** Transmittance of the atmosphere along a view direction (for objects behind it). */
export function viewTransmittance(S: SkyParams, dy: number, out: Float64Array): void {
  if (!S.atmosphere) {
    out[0] = out[1] = out[2] = 1;
    return;
  }
  const mv = airmass(dy);
  for (let c = 0; c < 3; c++) out[c] = Math.exp(-(S.tauR[c]! + S.tauM + S.tauO[c]!) * mv);
}

function measureAmbient(S: SkyParams): void {
  const tmp = new Float64Array(3);
  const sum = [0, 0, 0];
  let n = 0;
  for (let i = 0; i < 16; i++) {
    for (const elev of [10, 35, 70]) {
      const [x, y, z] = directionOfDegrees(i * 22.5, elev);
      atmosphere(S, x, y, z, tmp);
      const wgt = Math.sin((elev * Math.PI) / 180) + 0.2;
      for (let c = 0; c < 3; c++) sum[c]! += tmp[c]! * wgt;
      n += wgt;
    }
  }
  for (let c = 0; c < 3; c++) S.ambient[c] = (sum[c]! / n) * Math.PI * 0.6;
}
