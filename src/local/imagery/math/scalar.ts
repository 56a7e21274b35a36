/** Scalar shaping functions shared by the shading modules. */

/** Hermite step from 0 at `a` to 1 at `b`. */
export function smoothstep(a: number, b: number, x: number): number {
  const t = (x - a) / (b - a);
  if (t <= 0) return 0;
  if (t >= 1) return 1;
  return t * t * (3 - 2 * t);
}

export function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}

/** Derivative of smoothstep(a, b, x) with respect to x. */
export function smoothstepSlope(a: number, b: number, x: number): number {
  if (x <= a || x >= b) return 0;
  const t = (x - a) / (b - a);
  return (6 * t * (1 - t)) / (b - a);
}
