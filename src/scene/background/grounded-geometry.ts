/**
 * The shape of a grounded background (three.js's `GroundedSkybox`): a sphere of `radius`
 * around the projection centre whose lower part is pressed flat onto the ground, `height`
 * below the centre. Each vertex only moves along its own ray from the centre, so it keeps
 * the panorama direction it shows: its texture coordinates are the panorama's own (u, v),
 * no shader needed, and the picture's ground lands on a flat ground objects stand on.
 */
import { directionOfUv } from "../../api/panorama/panorama-directions.ts";

/** A grounded background's vertices (in the frame of its centre, +Y up) and triangles. */
export interface GroundedGeometry {
  positions: Float32Array;
  uvs: Float32Array;
  indices: Uint32Array;
}

/**
 * How far along a unit ray (its `y` below the centre) the pressed sphere lies, as a
 * fraction of `radius`: the ground plane under the steep rays, a smooth blend into the
 * sphere above them (the same blend as three.js: continuous, and level at the horizon).
 * @param y the ray's y times the radius (negative: below the centre)
 * @param height height of the centre above the ground
 */
export function groundedScale(y: number, height: number): number {
  if (y >= 0) return 1;
  const blendStart = -1.5 * height;
  return y < blendStart ? -height / y : 1 - (y * y) / (3 * blendStart * blendStart);
}

/**
 * The grounded sphere on a (u, v) grid of the panorama: `columns` + 1 columns (the seam
 * column twice, at u = 0 and u = 1, so no triangle spans it) and `rows` + 1 rows from the
 * zenith (v = 0) to the nadir (v = 1).
 * @param height height of the projection centre above the ground (scene units)
 * @param radius radius of the sky sphere (more than 1.5 × height)
 * @param rightHanded `scene.useRightHandedSystem`: a left-handed scene sees the panorama with z flipped (sun-frame.ts)
 * @param columns segments around
 * @param rows segments from zenith to nadir
 */
export function groundedGeometry(height: number, radius: number, rightHanded: boolean, columns = 128, rows = 96): GroundedGeometry {
  const count = (columns + 1) * (rows + 1);
  const positions = new Float32Array(count * 3);
  const uvs = new Float32Array(count * 2);
  const d = [0, 0, 0];
  for (let r = 0; r <= rows; r++) {
    const v = r / rows;
    for (let c = 0; c <= columns; c++) {
      const u = c / columns;
      const i = r * (columns + 1) + c;
      directionOfUv(u, v, d);
      const f = radius * groundedScale(d[1]! * radius, height);
      positions[3 * i] = d[0]! * f;
      positions[3 * i + 1] = d[1]! * f;
      positions[3 * i + 2] = (rightHanded ? d[2]! : -d[2]!) * f;
      uvs[2 * i] = u;
      uvs[2 * i + 1] = v;
    }
  }
  const indices = new Uint32Array(columns * rows * 6);
  let k = 0;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      const a = r * (columns + 1) + c;
      const b = a + columns + 1;
      indices.set([a, b, a + 1, a + 1, b, b + 1], k);
      k += 6;
    }
  }
  return { positions, uvs, indices };
}
