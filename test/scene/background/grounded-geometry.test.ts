/**
 * The grounded background's shape: the picture's ground on a flat ground `height` under the
 * projection centre out to where its pixels would be stretched 3:1, the far ground out to the
 * sphere at the horizon with its pixels stretched far less than a flat ground's 33:1, the sky
 * on the sphere, every vertex on its own panorama direction (so the texture coordinates are
 * the panorama's), and no triangle across the seam.
 */
import { describe, expect, test } from "vitest";
import { directionOfUv } from "../../../src/api/panorama/panorama-directions.ts";
import { defaultFlatRadius, type GroundShape } from "../../../src/scene/background/flat-ground.ts";
import { groundedGeometry, groundedProfile } from "../../../src/scene/background/grounded-geometry.ts";

const HEIGHT = 2;
const RADIUS = 100;

/** The shape of a grounded background of `height` and `radius`, its flat ground the default's unless given. */
const shape = (height: number, radius: number, flatRadius = defaultFlatRadius(height, radius)): GroundShape => ({
  height,
  radius,
  flatRadius,
});

/**
 * The largest stretch of a panorama pixel along the radius, over the mesh's triangles below
 * the horizon (the nadir's cap aside): a pixel's length down the triangle over its length
 * round it, as a sphere round the centre shows it (1 there).
 */
function largestStretch(height: number, radius: number, flatRadius?: number): number {
  const g = groundedGeometry(shape(height, radius, flatRadius), false);
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
  const g = groundedGeometry(shape(HEIGHT, RADIUS), false, 64, 48);
  const vertex = (i: number) => [g.positions[3 * i]!, g.positions[3 * i + 1]!, g.positions[3 * i + 2]!];
  const { flatRadius } = groundedProfile(shape(HEIGHT, RADIUS));

  test("the flat ground reaches where its pixels are stretched 3:1, 2.8 × height out", () => {
    expect(flatRadius).toBeCloseTo(HEIGHT * Math.sqrt(8), 6);
    // On a small sphere, less: the ray to its edge is 2/3 of the radius, and the far ground has room.
    expect(defaultFlatRadius(2, 6)).toBeCloseTo(Math.sqrt(16 - 4), 6);
  });

  test("a flatRadius asked for is where the flat ground ends: objects 10 × height out stand on it, its pixels stretched 10:1 at its edge", () => {
    const wide = groundedGeometry(shape(HEIGHT, RADIUS, 10 * HEIGHT), false, 64, 48);
    const edge = HEIGHT / Math.hypot(HEIGHT, 10 * HEIGHT);
    let farthest = 0;
    for (let i = 0; i < wide.positions.length / 3; i++) {
      const [x, y, z] = [wide.positions[3 * i]!, wide.positions[3 * i + 1]!, wide.positions[3 * i + 2]!];
      const steep = -y / Math.hypot(x, y, z) >= edge - 1e-6;
      // Every ray steeper than its edge lies on the ground plane; the flat part reaches 10 × height.
      if (steep) {
        expect(y).toBeCloseTo(-HEIGHT, 4);
        farthest = Math.max(farthest, Math.hypot(x, z));
      }
    }
    expect(farthest).toBeGreaterThan(9.5 * HEIGHT);
    expect(farthest).toBeLessThanOrEqual(10 * HEIGHT + 1e-4);
    expect(largestStretch(HEIGHT, RADIUS, 10 * HEIGHT)).toBeGreaterThan(9);
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
    const { distance } = groundedProfile(shape(HEIGHT, RADIUS));
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
    const right = groundedGeometry(shape(HEIGHT, RADIUS), true, 64, 48);
    expect(right.positions[3 * 100 + 2]).toBeCloseTo(-g.positions[3 * 100 + 2]!, 4);
  });

  test("no triangle spans the seam: texture coordinates within a triangle differ by less than a column", () => {
    for (let t = 0; t < g.indices.length; t += 3) {
      const us = [0, 1, 2].map((k) => g.uvs[2 * g.indices[t + k]!]!);
      expect(Math.max(...us) - Math.min(...us)).toBeLessThanOrEqual(1 / 64 + 1e-6);
    }
  });
});
