import type { CelestialParams } from "./celestial.ts";
import { value2 } from "../../math/noise.ts";

/**
 * Adds aurora curtains for upward directions: the ray is sampled through the emitting
 * layer (100-250 km up); curtains are thin ridges of a noise field on the ground plane,
 * bright at their lower edge, green below and violet above, striated along their length.
 */
export function addAurora(C: CelestialParams, dx: number, dy: number, dz: number, out: Float64Array): void {
  if (C.aurora <= 0 || dy < 0.02) return;
  const fade = Math.min(1, (dy - 0.02) * 10);
  let r = 0;
  let g = 0;
  let b = 0;
  const steps = 24;
  for (let k = 0; k < steps; k++) {
    const h = 100 + k * 6;
    const t = h / dy;
    const x = dx * t;
    const z = dz * t;
    const v = value2(x * 0.0022 + 7.7, z * 0.0022 - 3.1) + 0.25 * value2(x * 0.009, z * 0.009);
    const sheet = Math.exp(-(v * v) / 0.0036);
    if (sheet < 0.01) continue;
    const rays = 0.55 + 0.45 * value2(x * 0.06 + z * 0.02, 0.5);
    const height = k / steps;
    const e = sheet * rays * Math.exp(-height * 2.2) * (1 - Math.exp(-k - 0.5));
    r += e * (0.08 + 0.7 * height * height);
    g += e * (1 - 0.7 * height);
    b += e * (0.25 + 0.6 * height);
  }
  const s = 0.006 * C.aurora * fade;
  out[0]! += r * s;
  out[1]! += g * s;
  out[2]! += b * s;
}
