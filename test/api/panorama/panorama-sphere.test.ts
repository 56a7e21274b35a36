import { describe, expect, test } from "vitest";
import { directionOfUv } from "../../../src/api/panorama/panorama-directions.ts";
import { panoramaSphere } from "../../../src/api/panorama/panorama-sphere.ts";

const vertex = (positions: Float32Array, k: number) => [positions[k * 3]!, positions[k * 3 + 1]!, positions[k * 3 + 2]!] as const;

describe("the panorama's depth sphere", () => {
  const across = 8;
  const down = 4;
  const radiusAt = (u: number, v: number) => 1 + u + 2 * v;
  const sphere = panoramaSphere(across, down, radiusAt);

  test("each vertex lies in its panorama direction at the radius given there, the seam column repeating the first", () => {
    const direction = new Float64Array(3);
    for (const [i, j] of [
      [0, 1],
      [3, 2],
      [8, 3],
    ] as const) {
      const k = j * (across + 1) + i;
      directionOfUv(i / across, j / down, direction);
      const r = radiusAt(i / across, j / down);
      vertex(sphere.positions, k).forEach((c, axis) => expect(c).toBeCloseTo(direction[axis]! * r, 5));
      expect([sphere.uvs[k * 2], sphere.uvs[k * 2 + 1]]).toEqual([i / across, j / down]);
    }
  });

  test("a pole row is one point on the axis at the row's mean radius", () => {
    const top = Array.from({ length: across + 1 }, (_, i) => vertex(sphere.positions, i));
    const mean = Array.from({ length: across }, (_, i) => radiusAt((i + 0.5) / across, 0)).reduce((a, b) => a + b) / across;
    for (const p of top) expect(p).toEqual([0, Math.fround(mean), 0]);
  });

  test("two triangles per quad, one per pole quad, all facing the centre", () => {
    expect(sphere.indices.length).toBe(3 * 2 * across * (down - 1));
    for (let t = 0; t < sphere.indices.length; t += 3) {
      const [a, b, c] = [0, 1, 2].map((n) => vertex(sphere.positions, sphere.indices[t + n]!));
      const e1 = [b![0] - a![0], b![1] - a![1], b![2] - a![2]];
      const e2 = [c![0] - a![0], c![1] - a![1], c![2] - a![2]];
      const normal = [e1[1]! * e2[2]! - e1[2]! * e2[1]!, e1[2]! * e2[0]! - e1[0]! * e2[2]!, e1[0]! * e2[1]! - e1[1]! * e2[0]!];
      const centroid = [0, 1, 2].map((axis) => (a![axis]! + b![axis]! + c![axis]!) / 3);
      // Counter-clockwise seen from the centre: the normal points back at it.
      expect(normal[0]! * centroid[0]! + normal[1]! * centroid[1]! + normal[2]! * centroid[2]!).toBeLessThan(0);
    }
  });
});
