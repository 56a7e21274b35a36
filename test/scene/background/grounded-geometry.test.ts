/**
 * The grounded background's shape: the picture's ground on a flat ground `height` under the
 * projection centre out to where its pixels would be stretched 3:1, the far ground out to the
 * sphere at the horizon with its pixels stretched far less than a flat ground's 33:1, the sky
 * on the sphere, every vertex on its own panorama direction (so the texture coordinates are
 * the panorama's), and no triangle across the seam.
 */
import { describe, expect, test } from "vitest";
import { directionOfUv } from "../../../src/api/panorama/panorama-directions.ts";
import { groundedGeometry, groundedProfile } from "../../../src/scene/background/grounded-geometry.ts";

const HEIGHT = 2;
const RADIUS = 100;

/**
 * The largest stretch of a panorama pixel along the radius, over the mesh's triangles below
 * the horizon (the nadir's cap aside): a pixel's length down the triangle over its length
 * round it, as a sphere round the centre shows it (1 there).
 */
function largestStretch(height: number, radius: number): number {
  const g = groundedGeometry(height, radius, false);
  const p = (i: number) => [g.positions[3 * i]!, g.positions[3 * i + 1]!, g.positions[3 * i + 2]!];
  const length = (a: number[], b: number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);
  let worst = 0;
  for (let t = 0; t < g.indices.length; t += 6) {
    // Each quad's first triangle: a, the vertex below it (b) and the one beside it (a1).
    const [a, b, a1] = [g.indices[t]!, g.indices[t + 1]!, g.indices[t + 2]!];
    const down = length(p(b), p(a)) / (g.uvs[2 * b + 1]! - g.uvs[2 * a + 1]!);
    const round = length(p(a1), p(a)) / (g.uvs[2 * a1]! - g.uvs[2 * a]!);
    const latitude = Math.PI * (0.5 - (g.uvs[2 * a + 1]! + g.uvs[2 * b + 1]!) / 2);
    // v spans pi radians, u 2 pi of the circle of latitude.
    if (latitude < 0 && latitude > -Math.PI / 2 + 0.2) worst = Math.max(worst, ((2 * down) / round) * Math.cos(latitude));
  }
  return worst;
}

describe("groundedGeometry", () => {
  const g = groundedGeometry(HEIGHT, RADIUS, false, 64, 48);
  const vertex = (i: number) => [g.positions[3 * i]!, g.positions[3 * i + 1]!, g.positions[3 * i + 2]!];
  const { flatRadius } = groundedProfile(HEIGHT, RADIUS);

  test("the flat ground reaches where its pixels are stretched 3:1, 2.8 × height out", () => {
    expect(flatRadius).toBeCloseTo(HEIGHT * Math.sqrt(8), 6);
  });

  test("rays steeper than the flat ground's edge lie on it, height under the centre; those above the horizon on the sphere", () => {
    let flat = 0;
    for (let i = 0; i < g.positions.length / 3; i++) {
      const [x, y, z] = vertex(i);
      const distance = Math.hypot(x!, y!, z!);
      if (y! / distance < -HEIGHT / Math.hypot(HEIGHT, flatRadius) - 1e-6) {
        expect(y).toBeCloseTo(-HEIGHT, 4);
        flat++;
      } else if (y! >= 0) expect(distance).toBeCloseTo(RADIUS, 3);
    }
    // Over a third of the even grid's vertices: all those from 20 degrees under the horizon down.
    expect(flat).toBeGreaterThan(0.35 * 49 * 65);
  });

  test("the far ground meets the flat ground and the sphere without a step, level at the horizon, at most 1.5 × height under the ground", () => {
    const { distance } = groundedProfile(HEIGHT, RADIUS);
    const edge = Math.atan(HEIGHT / flatRadius);
    expect(distance(edge - 1e-9)).toBeCloseTo(distance(edge + 1e-9), 5);
    expect(distance(1e-9)).toBeCloseTo(RADIUS, 5);
    expect((distance(2e-7) - distance(1e-7)) / 1e-7).toBeCloseTo(0, 1);
    for (let d = 0; d < edge; d += 0.001) {
      // Under the ground out there (at most 1.5 × height), up to the centre's height at the horizon.
      const y = HEIGHT - distance(d) * Math.sin(d);
      expect(y).toBeGreaterThan(-1.5 * HEIGHT);
      expect(y).toBeLessThanOrEqual(HEIGHT);
    }
  });

  test("no triangle stretches the panorama's pixels along the radius more than 9:1 (a flat ground out to 2/3 of the radius: 15:1)", () => {
    expect(largestStretch(HEIGHT, RADIUS)).toBeLessThan(9);
    // Radius and height of other scenes.
    expect(largestStretch(1, 100)).toBeLessThan(12);
    expect(largestStretch(2, 1000)).toBeLessThan(16);
  });

  test("each vertex lies on the panorama direction of its texture coordinates (left-handed: z flipped)", () => {
    const d = [0, 0, 0];
    for (let i = 0; i < g.positions.length / 3; i += 7) {
      const [x, y, z] = vertex(i);
      const length = Math.hypot(x!, y!, z!);
      directionOfUv(g.uvs[2 * i]!, g.uvs[2 * i + 1]!, d);
      expect(x! / length).toBeCloseTo(d[0]!, 4);
      expect(y! / length).toBeCloseTo(d[1]!, 4);
      expect(z! / length).toBeCloseTo(-d[2]!, 4);
    }
    const right = groundedGeometry(HEIGHT, RADIUS, true, 64, 48);
    expect(right.positions[3 * 100 + 2]).toBeCloseTo(-g.positions[3 * 100 + 2]!, 4);
  });

  test("no triangle spans the seam: texture coordinates within a triangle differ by less than a column", () => {
    for (let t = 0; t < g.indices.length; t += 3) {
      const us = [0, 1, 2].map((k) => g.uvs[2 * g.indices[t + k]!]!);
      expect(Math.max(...us) - Math.min(...us)).toBeLessThanOrEqual(1 / 64 + 1e-6);
    }
  });
});
