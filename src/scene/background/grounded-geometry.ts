/**
 * The shape of a grounded background (after three.js's `GroundedSkybox`): a sphere of
 * `radius` around the projection centre whose lower part is pressed flat onto the ground,
 * `height` below the centre. Each vertex only moves along its own ray from the centre, so it
 * keeps the panorama direction it shows: its texture coordinates are the panorama's own
 * (u, v), no shader needed, and the picture's ground lands on a flat ground objects stand on.
 *
 * A flat ground seen `d` radians below the horizon stretches the panorama's pixels 1 / sin(d)
 * times along its radius: 33:1 where three.js's flat part ends at height 2 and radius 100,
 * drawn from above as radial streaks. So the flat ground ends, unless asked to reach farther,
 * where the stretch reaches 3:1 (2.83 × height out; flat-ground.ts), and the rays nearer the
 * horizon go on, at a constant rise in log distance per radian, out to the sphere, which
 * they meet level at the horizon.
 * That surface lies below the ground plane (at most about 1.3 × height at the defaults): seen
 * from above it is a far ground whose pixels are stretched about 8:1 at most, not 33:1. No
 * surface that keeps to the ground plane out there does better than radius / (e × height).
 */
import { directionOfUv } from "../../api/panorama/panorama-directions.ts";
import type { GroundShape } from "./flat-ground.ts";

/** A grounded background's vertices (in the frame of its centre, +Y up) and triangles. */
export interface GroundedGeometry {
  positions: Float32Array;
  uvs: Float32Array;
  indices: Uint32Array;
}

/** How far the grounded surface lies along each ray below the horizon. */
export interface GroundedProfile {
  /**
   * Distance from the centre along a ray `depression` radians below the horizon (0 and
   * above: the sphere's radius).
   */
  distance: (depression: number) => number;
  /** The flat ground's radius around the foot of the centre (beyond it, the far ground out to the sphere). */
  flatRadius: number;
  /** The far ground's steepness: how much log distance it covers per radian (its pixels' largest stretch is about this). */
  steepness: number;
}

/** The angle over which the far ground turns level to meet the sphere at the horizon (radians). */
const HORIZON_ROUNDING = (0.5 * Math.PI) / 180;
/** Rows of the mesh spent between the flat ground's edge and the horizon, besides the regular ones. */
const FAR_ROWS = 24;

/** The far ground's shape: angle below the horizon, rounded at the horizon (0 there, with a level tangent). */
function bend(depression: number): number {
  return Math.hypot(depression, HORIZON_ROUNDING) - HORIZON_ROUNDING;
}

/**
 * The grounded surface's profile: flat ground `height` under the centre out to
 * `flatRadius`, then a far ground of constant steepness out to the sphere of `radius` at
 * the horizon.
 */
export function groundedProfile({ height, radius, flatRadius }: GroundShape): GroundedProfile {
  const edge = Math.atan2(height, flatRadius);
  const steepness = Math.log((radius * Math.sin(edge)) / height) / bend(edge);
  return {
    distance: (depression) =>
      depression <= 0 ? radius : depression >= edge ? height / Math.sin(depression) : radius * Math.exp(-steepness * bend(depression)),
    flatRadius,
    steepness,
  };
}

/** The rows' v from the zenith (0) to the nadir (1): `rows` even ones and more on the far ground below the horizon, down to the flat ground's edge. */
function rowsV(rows: number, profile: GroundedProfile, height: number): number[] {
  const farEnd = Math.atan(height / profile.flatRadius) / Math.PI;
  const vs = Array.from({ length: rows + 1 }, (_, r) => r / rows);
  // Up to the flat ground's edge itself, so that the flat ground reaches it.
  for (let k = 1; k <= FAR_ROWS; k++) vs.push(0.5 + (farEnd * k) / FAR_ROWS);
  return [...new Set(vs)].sort((a, b) => a - b);
}

/**
 * The grounded surface on a (u, v) grid of the panorama: `columns` + 1 columns (the seam
 * column twice, at u = 0 and u = 1, so no triangle spans it) and rows from the zenith
 * (v = 0) to the nadir (v = 1): `rows` even ones and more on the far ground.
 * @param shape height of the projection centre above the ground, radius of the sky sphere
 * (more than 1.5 × height) and of the flat ground (scene units)
 * @param rightHanded `scene.useRightHandedSystem`: a left-handed scene sees the panorama with z flipped (sun-frame.ts)
 * @param columns segments around
 * @param rows even segments from zenith to nadir
 */
export function groundedGeometry(shape: GroundShape, rightHanded: boolean, columns = 128, rows = 96): GroundedGeometry {
  const profile = groundedProfile(shape);
  const vs = rowsV(rows, profile, shape.height);
  const count = (columns + 1) * vs.length;
  const positions = new Float32Array(count * 3);
  const uvs = new Float32Array(count * 2);
  const d = [0, 0, 0];
  vs.forEach((v, r) => {
    for (let c = 0; c <= columns; c++) {
      const u = c / columns;
      const i = r * (columns + 1) + c;
      directionOfUv(u, v, d);
      const f = profile.distance(Math.asin(-d[1]!));
      positions[3 * i] = d[0]! * f;
      positions[3 * i + 1] = d[1]! * f;
      positions[3 * i + 2] = (rightHanded ? d[2]! : -d[2]!) * f;
      uvs[2 * i] = u;
      uvs[2 * i + 1] = v;
    }
  });
  const indices = new Uint32Array(columns * (vs.length - 1) * 6);
  let k = 0;
  for (let r = 0; r < vs.length - 1; r++) {
    for (let c = 0; c < columns; c++) {
      const a = r * (columns + 1) + c;
      const b = a + columns + 1;
      indices.set([a, b, a + 1, a + 1, b, b + 1], k);
      k += 6;
    }
  }
  return { positions, uvs, indices };
}
