/**
 * The depth mesh's sphere (src/api/panorama/panorama-sphere.ts) with the bounds glTF's
 * POSITION accessor must carry.
 */
import { panoramaSphere, type PanoramaSphere } from "../../../../api/panorama/panorama-sphere.ts";

export interface SphereMesh extends PanoramaSphere {
  min: [number, number, number];
  max: [number, number, number];
}

export function buildSphere(across: number, down: number, radiusAt: (u: number, v: number) => number): SphereMesh {
  const sphere = panoramaSphere(across, down, radiusAt);
  return { ...sphere, ...bounds(sphere.positions) };
}

function bounds(positions: Float32Array): Pick<SphereMesh, "min" | "max"> {
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i++) {
    const axis = i % 3;
    min[axis] = Math.min(min[axis]!, positions[i]!);
    max[axis] = Math.max(max[axis]!, positions[i]!);
  }
  return { min, max };
}
