/**
 * A UV sphere around the origin whose radius follows a function of panorama position: the
 * depth mesh the local service's GLB export writes and the browser builds as the Model 4
 * backdrop, one layout for both so they line up vertex for vertex.
 *
 * Vertex (i, j), i = 0..across, j = 0..down, sits at panorama coordinates
 * (u, v) = (i / across, j / down) (panorama-directions.ts); the column u = 1 repeats u = 0
 * so the texture seam closes. All vertices of a pole row share one position (the mean
 * radius of that row, on the axis) and take u = (i + 0.5) / across, so pole triangles do
 * not twist. Pole quads degenerate into one triangle each. Triangles face inwards
 * (counter-clockwise seen from the centre, glTF's front face) in the panorama's
 * right-handed frame; uvs keep v growing downwards, as the panorama's rows.
 */
import { directionOfUv } from "./panorama-directions.ts";

export interface PanoramaSphere {
  positions: Float32Array;
  uvs: Float32Array;
  indices: Uint16Array | Uint32Array;
}

/** The sphere of `across` x `down` quads whose vertex at (u, v) lies `radiusAt(u, v)` from the centre. */
export function panoramaSphere(across: number, down: number, radiusAt: (u: number, v: number) => number): PanoramaSphere {
  const count = (across + 1) * (down + 1);
  const positions = new Float32Array(count * 3);
  const uvs = new Float32Array(count * 2);
  const direction = new Float64Array(3);
  for (let j = 0; j <= down; j++) {
    const v = j / down;
    const pole = j === 0 || j === down;
    const poleRadius = pole ? meanRadius(across, v, radiusAt) : 0;
    for (let i = 0; i <= across; i++) {
      const k = j * (across + 1) + i;
      const u = pole ? (i + 0.5) / across : i / across;
      const radius = pole ? poleRadius : radiusAt(u, v);
      directionOfUv(u, v, direction);
      positions[k * 3] = pole ? 0 : direction[0]! * radius;
      positions[k * 3 + 1] = direction[1]! * radius;
      positions[k * 3 + 2] = pole ? 0 : direction[2]! * radius;
      uvs[k * 2] = u;
      uvs[k * 2 + 1] = v;
    }
  }
  return { positions, uvs, indices: triangles(across, down, count) };
}

function meanRadius(across: number, v: number, radiusAt: (u: number, v: number) => number): number {
  let sum = 0;
  for (let i = 0; i < across; i++) sum += radiusAt((i + 0.5) / across, v);
  return sum / across;
}

/**
 * Quad corners seen from the centre: a top-left, b top-right, c bottom-left, d bottom-right
 * (u grows to the viewer's right, v downwards). (a, c, d) and (a, d, b) run counter-clockwise.
 */
function triangles(across: number, down: number, count: number): Uint16Array | Uint32Array {
  const triangleCount = 2 * across * (down - 1);
  const indices = count > 0xffff ? new Uint32Array(triangleCount * 3) : new Uint16Array(triangleCount * 3);
  let o = 0;
  for (let j = 0; j < down; j++) {
    for (let i = 0; i < across; i++) {
      const a = j * (across + 1) + i;
      const b = a + 1;
      const c = a + across + 1;
      const d = c + 1;
      if (j !== down - 1) o = triangle(indices, o, a, c, d);
      if (j !== 0) o = triangle(indices, o, a, d, b);
    }
  }
  return indices;
}

/** Writes one triangle's corners at `o`; returns where the next one goes. */
function triangle(indices: Uint16Array | Uint32Array, o: number, a: number, b: number, c: number): number {
  indices[o] = a;
  indices[o + 1] = b;
  indices[o + 2] = c;
  return o + 3;
}
