/**
 * The grounded background's shape: the picture's ground on a flat ground `height` under the
 * projection centre, the sky on the sphere, every vertex on its own panorama direction (so
 * the texture coordinates are the panorama's), and no triangle across the seam.
 */
import { describe, expect, test } from "vitest";
import { directionOfUv } from "../../../src/api/panorama/panorama-directions.ts";
import { groundedGeometry, groundedScale } from "../../../src/scene/background/grounded-geometry.ts";

const HEIGHT = 2;
const RADIUS = 100;

describe("groundedGeometry", () => {
  const g = groundedGeometry(HEIGHT, RADIUS, false, 64, 48);
  const vertex = (i: number) => [g.positions[3 * i]!, g.positions[3 * i + 1]!, g.positions[3 * i + 2]!];

  test("rays steeper than the blend lie on the ground, height under the centre; those above it on the sphere", () => {
    let flat = 0;
    for (let i = 0; i < g.positions.length / 3; i++) {
      const [x, y, z] = vertex(i);
      const distance = Math.hypot(x!, y!, z!);
      if (y! / distance < (-1.5 * HEIGHT) / RADIUS) {
        expect(y).toBeCloseTo(-HEIGHT, 4);
        flat++;
      } else if (y! >= 0) expect(distance).toBeCloseTo(RADIUS, 3);
    }
    // The whole lower half but a thin band at the horizon.
    expect(flat).toBeGreaterThan(0.45 * (g.positions.length / 3));
  });

  test("the blend is continuous where it meets the ground and level with the sphere at the horizon", () => {
    const start = -1.5 * HEIGHT;
    expect(groundedScale(start - 1e-9, HEIGHT)).toBeCloseTo(groundedScale(start + 1e-9, HEIGHT), 6);
    expect(groundedScale(-1e-9, HEIGHT)).toBeCloseTo(1, 6);
    expect(groundedScale(10, HEIGHT)).toBe(1);
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
