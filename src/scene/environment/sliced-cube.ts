/**
 * Babylon's CPU steps from a float panorama to a lit cube, spread over slices: its panorama
 * to cube conversion and its projection of the cube on the irradiance harmonics, a few rows
 * of a face a call. Each uses Babylon's own per-texel code in Babylon's order,
 * so the faces and harmonics equal those of `ConvertPanoramaToCubemap` and
 * `ConvertCubeMapToSphericalPolynomial` (what HDRCubeTexture computes in one task).
 */
import { Color3 } from "@babylonjs/core/Maths/math.color.js";
import { Clamp } from "@babylonjs/core/Maths/math.scalar.functions.js";
import type { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { SphericalHarmonics, SphericalPolynomial } from "@babylonjs/core/Maths/sphericalPolynomial.js";
import { CubeMapToSphericalPolynomialTools } from "@babylonjs/core/Misc/HighDynamicRange/cubemapToSphericalPolynomial.js";
import { PanoramaToCubeMapTools, type CubeMapInfo } from "@babylonjs/core/Misc/HighDynamicRange/panoramaToCubemap.js";
import { timedStep } from "../scheduling/step-timing.ts";
import type { WorkSlices } from "../scheduling/work-slices.ts";

/** Babylon's face helpers (static members it keeps private, present since Babylon 4). */
interface PanoramaFaces {
  CalcProjectionSpherical(
    direction: Vector3,
    data: Float32Array,
    width: number,
    height: number,
    stride: number,
    invertY: boolean,
  ): { r: number; g: number; b: number };
  FACE_FRONT: Vector3[];
  FACE_BACK: Vector3[];
  FACE_LEFT: Vector3[];
  FACE_RIGHT: Vector3[];
  FACE_UP: Vector3[];
  FACE_DOWN: Vector3[];
}
/** Rows of a face converted or projected between looks at the clock. */
const ROWS = 4;

interface FileFace {
  name: "right" | "left" | "up" | "down" | "front" | "back";
  worldAxisForNormal: Vector3;
  worldAxisForFileX: Vector3;
  worldAxisForFileY: Vector3;
}
interface HarmonicsTools {
  _FileFaces: FileFace[];
  _AreaElement(x: number, y: number): number;
  MAX_HDRI_VALUE: number;
  PRESERVE_CLAMPED_COLORS: boolean;
}

/**
 * The six faces of an RGB float panorama (rows from the top), a few rows a slice: Babylon's
 * `CreateCubemapTexture` (no supersampling, rows flipped as its HDR path does) row by row.
 * @param data RGB floats
 * @param width panorama width
 * @param height panorama height
 * @param size face size
 * @param slices the time it runs in
 */
export async function panoramaToCube(
  data: Float32Array,
  width: number,
  height: number,
  size: number,
  slices: WorkSlices,
): Promise<CubeMapInfo> {
  const tools = PanoramaToCubeMapTools as unknown as PanoramaFaces;
  const faces = {
    front: tools.FACE_FRONT,
    back: tools.FACE_BACK,
    left: tools.FACE_LEFT,
    right: tools.FACE_RIGHT,
    up: tools.FACE_UP,
    down: tools.FACE_DOWN,
  };
  const out: Partial<Record<keyof typeof faces, Float32Array>> = {};
  for (const [name, corners] of Object.entries(faces) as [keyof typeof faces, Vector3[]][]) {
    const face = new Float32Array(size * size * 3);
    const rotDX1 = corners[1]!.subtract(corners[0]!).scale(1 / size);
    const rotDX2 = corners[3]!.subtract(corners[2]!).scale(1 / size);
    const dy = 1 / size;
    // fy steps by additions, as Babylon's does: the same directions, the same texels.
    let fy = 0;
    for (let y = 0; y < size;) {
      await slices.next();
      timedStep("panorama-to-cube", () => {
        for (const end = Math.min(size, y + ROWS); y < end; y++, fy += dy) {
          let xv1 = corners[0]!;
          let xv2 = corners[2]!;
          for (let x = 0; x < size; x++) {
            const v = xv2.subtract(xv1).scale(fy).add(xv1);
            v.normalize();
            const color = tools.CalcProjectionSpherical(v, data, width, height, 3, true);
            face[(y * size + x) * 3] = color.r;
            face[(y * size + x) * 3 + 1] = color.g;
            face[(y * size + x) * 3 + 2] = color.b;
            xv1 = xv1.add(rotDX1);
            xv2 = xv2.add(rotDX2);
          }
        }
      });
    }
    out[name] = face;
  }
  // Format and type as Babylon's conversion answers them (RGB, float).
  return { ...(out as Required<typeof out>), size, type: 1, format: 4, gammaSpace: false };
}

/**
 * The irradiance harmonics of a linear float RGB cube (not gamma, as HDR cubes are), a few rows a slice.
 * @param cube the faces
 * @param slices the time it runs in
 */
export async function cubeHarmonics(cube: CubeMapInfo, slices: WorkSlices): Promise<SphericalPolynomial> {
  const tools = CubeMapToSphericalPolynomialTools as unknown as HarmonicsTools;
  const harmonics = new SphericalHarmonics();
  const { size } = cube;
  const du = 2 / size;
  const halfTexel = 0.5 * du;
  const minUV = halfTexel - 1;
  const stride = cube.format === 5 ? 4 : 3;
  let totalSolidAngle = 0;
  for (const face of tools._FileFaces) {
    const data = cube[face.name] as Float32Array;
    // u and v step by additions, as Babylon's do: the same floats, the same sums.
    let v = minUV;
    for (let y = 0; y < size;) {
      await slices.next();
      timedStep("harmonics", () => {
        for (const end = Math.min(size, y + ROWS); y < end; y++, v += du) {
          let u = minUV;
          for (let x = 0; x < size; x++, u += du) {
            const direction = face.worldAxisForFileX.scale(u).add(face.worldAxisForFileY.scale(v)).add(face.worldAxisForNormal);
            direction.normalize();
            const solidAngle =
              tools._AreaElement(u - halfTexel, v - halfTexel) -
              tools._AreaElement(u - halfTexel, v + halfTexel) -
              tools._AreaElement(u + halfTexel, v - halfTexel) +
              tools._AreaElement(u + halfTexel, v + halfTexel);
            const o = (y * size + x) * stride;
            harmonics.addLight(direction, clamped(data[o]!, data[o + 1]!, data[o + 2]!, tools), solidAngle);
            totalSolidAngle += solidAngle;
          }
        }
      });
    }
  }
  // Babylon scales the sum to the whole sphere's 4 pi (the texels' solid angles are approximate).
  harmonics.scaleInPlace((4 * Math.PI) / totalSolidAngle);
  harmonics.convertIncidentRadianceToIrradiance();
  harmonics.convertIrradianceToLambertianRadiance();
  return SphericalPolynomial.FromHarmonics(harmonics);
}

/** A texel's radiance as Babylon counts it: NaN as 0, clamped at MAX_HDRI_VALUE. */
function clamped(r: number, g: number, b: number, tools: HarmonicsTools): Color3 {
  r = isNaN(r) ? 0 : r;
  g = isNaN(g) ? 0 : g;
  b = isNaN(b) ? 0 : b;
  const max = tools.MAX_HDRI_VALUE;
  if (tools.PRESERVE_CLAMPED_COLORS) {
    const factor = max / Math.max(r, g, b, max);
    return new Color3(r * factor, g * factor, b * factor);
  }
  return new Color3(Clamp(r, 0, max), Clamp(g, 0, max), Clamp(b, 0, max));
}
