/**
 * Cube faces in Babylon's (= OpenGL's) cube map convention, sampled from the panorama.
 *
 * A face texel (s, t) in 0..1 (s right, t down the image) maps to sc = 2s - 1, tc = 2t - 1
 * and to the Babylon-frame direction below (the GL cube map table). Babylon's frame is
 * left-handed; the panorama's (src/api/panorama/) is (x, y, -z) of it. Loaded with
 * `new CubeTexture("", scene, { files: [px, py, pz, nx, ny, nz] })`, these faces show
 * exactly what `EquiRectangularCubeTexture` shows for image.jpg: the panorama centre on
 * +Z (pz), u = 0.75 on +X (px), the zenith on +Y (py).
 */
import { uOfDirection, vOfDirection } from "../../../../api/panorama/panorama-directions.ts";
import type { PanoramaRgb8 } from "../panorama-sampler.ts";

export const FACE_NAMES = ["px", "nx", "py", "ny", "pz", "nz"] as const;
export type FaceName = (typeof FACE_NAMES)[number];

type Vec3 = readonly [number, number, number];

/**
 * Babylon-frame direction of each face's texel: origin + sc * sAxis + tc * tAxis (the GL
 * table: px = (1, -tc, -sc), nx = (-1, -tc, sc), py = (sc, 1, tc), ny = (sc, -1, -tc),
 * pz = (sc, -tc, 1), nz = (-sc, -tc, -1)).
 */
const BABYLON_BASIS: Record<FaceName, { origin: Vec3; sAxis: Vec3; tAxis: Vec3 }> = {
  px: { origin: [1, 0, 0], sAxis: [0, 0, -1], tAxis: [0, -1, 0] },
  nx: { origin: [-1, 0, 0], sAxis: [0, 0, 1], tAxis: [0, -1, 0] },
  py: { origin: [0, 1, 0], sAxis: [1, 0, 0], tAxis: [0, 0, 1] },
  ny: { origin: [0, -1, 0], sAxis: [1, 0, 0], tAxis: [0, 0, -1] },
  pz: { origin: [0, 0, 1], sAxis: [1, 0, 0], tAxis: [0, -1, 0] },
  nz: { origin: [0, 0, -1], sAxis: [-1, 0, 0], tAxis: [0, -1, 0] },
};

/** Direction in our (right-handed) frame of face texel (s, t), both 0..1: Babylon's with z negated. */
export function faceDirection(face: FaceName, s: number, t: number): [number, number, number] {
  const { origin: o, sAxis: a, tAxis: b } = BABYLON_BASIS[face];
  const sc = 2 * s - 1;
  const tc = 2 * t - 1;
  return [o[0] + sc * a[0] + tc * b[0], o[1] + sc * a[1] + tc * b[1], -(o[2] + sc * a[2] + tc * b[2])];
}

/** One square face, size x size 8-bit RGB, sampled bilinearly at each texel centre. */
export function renderFace(pano: PanoramaRgb8, face: FaceName, size: number): Uint8Array {
  const out = new Uint8Array(size * size * 3);
  const { origin: o, sAxis: a, tAxis: b } = BABYLON_BASIS[face];
  for (let j = 0; j < size; j++) {
    const tc = (2 * (j + 0.5)) / size - 1;
    for (let i = 0; i < size; i++) {
      const sc = (2 * (i + 0.5)) / size - 1;
      const x = o[0] + sc * a[0] + tc * b[0];
      const y = o[1] + sc * a[1] + tc * b[1];
      const z = -(o[2] + sc * a[2] + tc * b[2]);
      pano.sample(uOfDirection(x, z), vOfDirection(y / Math.sqrt(x * x + y * y + z * z)), out, (j * size + i) * 3);
    }
  }
  return out;
}

/** A square RGB image turned a quarter: clockwise (1) or counter-clockwise (-1). */
export function rotateQuarter(rgb: Uint8Array, size: number, turn: 1 | -1): Uint8Array {
  const out = new Uint8Array(rgb.length);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const from = turn === 1 ? (size - 1 - x) * size + y : x * size + (size - 1 - y);
      out.set(rgb.subarray(from * 3, from * 3 + 3), (y * size + x) * 3);
    }
  }
  return out;
}
