/**
 * 8-bit images (an equirectangular panorama, or six cube faces) to a float RawCubeTexture of
 * a chosen size: the browser decodes and scales each image down (`createImageBitmap`), so a
 * full-size 8K panorama never becomes a 400 MB float array; the irradiance harmonics are
 * computed here on the CPU instead of read back from the GPU.
 */
import { Constants } from "@babylonjs/core/Engines/constants.js";
import { RawCubeTexture } from "@babylonjs/core/Materials/Textures/rawCubeTexture.js";
import { CubeMapToSphericalPolynomialTools } from "@babylonjs/core/Misc/HighDynamicRange/cubemapToSphericalPolynomial.js";
import { PanoramaToCubeMapTools, type CubeMapInfo } from "@babylonjs/core/Misc/HighDynamicRange/panoramaToCubemap.js";
import type { SphericalPolynomial } from "@babylonjs/core/Maths/sphericalPolynomial.js";
import type { Scene } from "@babylonjs/core/scene.js";

/** A cube built on the CPU, with its harmonics (set them again after prefiltering: it swaps the GPU texture). */
export interface CpuCube {
  texture: RawCubeTexture;
  polynomial: SphericalPolynomial;
}

/** Face file names of a default cube-map ZIP, in the order RawCubeTexture takes them (+X, -X, +Y, -Y, +Z, -Z). */
export const FACE_NAMES = ["px", "nx", "py", "ny", "pz", "nz"] as const;

/** An equirectangular image (JPG/PNG bytes) as a cube of `size`. */
export async function cubeFromPanorama(scene: Scene, bytes: Uint8Array, size: number, name: string): Promise<CpuCube> {
  const w = 4 * size;
  const h = 2 * size;
  const rgb = toLinear(await decodeScaled(bytes, w, h));
  const info = PanoramaToCubeMapTools.ConvertPanoramaToCubemap(rgb, w, h, size);
  return upload(scene, info, name);
}

/** Six face images (+X, -X, +Y, -Y, +Z, -Z) as a cube of `size`. */
export async function cubeFromFaces(scene: Scene, faces: readonly Uint8Array[], size: number, name: string): Promise<CpuCube> {
  const [right, left, up, down, front, back] = await Promise.all(faces.map(async (f) => toLinear(await decodeScaled(f, size, size))));
  const info: CubeMapInfo = {
    size,
    right: right!,
    left: left!,
    up: up!,
    down: down!,
    front: front!,
    back: back!,
    format: Constants.TEXTUREFORMAT_RGB,
    type: Constants.TEXTURETYPE_FLOAT,
    gammaSpace: false,
  };
  return upload(scene, info, name);
}

function upload(scene: Scene, info: CubeMapInfo, name: string): CpuCube {
  const faces = [info.right, info.left, info.up, info.down, info.front, info.back].map((f) => f!);
  const texture = new RawCubeTexture(
    scene,
    faces,
    info.size,
    Constants.TEXTUREFORMAT_RGB,
    Constants.TEXTURETYPE_FLOAT,
    true,
    false,
    Constants.TEXTURE_TRILINEAR_SAMPLINGMODE,
  );
  texture.name = name;
  const polynomial = CubeMapToSphericalPolynomialTools.ConvertCubeMapToSphericalPolynomial({
    ...info,
    format: Constants.TEXTUREFORMAT_RGB,
    gammaSpace: false,
  });
  texture.sphericalPolynomial = polynomial;
  return { texture, polynomial };
}

/** RGBA bytes of an image scaled to w x h. */
export async function decodeScaled(bytes: Uint8Array, w: number, h: number): Promise<Uint8ClampedArray> {
  const bitmap = await createImageBitmap(new Blob([bytes as BlobPart]), { resizeWidth: w, resizeHeight: h, resizeQuality: "high" });
  try {
    const ctx = new OffscreenCanvas(w, h).getContext("2d", { willReadFrequently: true });
    if (!ctx) throw new Error("No 2D canvas context to decode an image");
    ctx.drawImage(bitmap, 0, 0);
    return ctx.getImageData(0, 0, w, h).data;
  } finally {
    bitmap.close();
  }
}

/** sRGB RGBA bytes to linear float RGB (the 2.2 power Babylon's own 8-bit paths use). */
function toLinear(rgba: Uint8ClampedArray): Float32Array {
  const lut = new Float32Array(256);
  for (let i = 0; i < 256; i++) lut[i] = (i / 255) ** 2.2;
  const rgb = new Float32Array((rgba.length / 4) * 3);
  for (let i = 0, j = 0; i < rgba.length; i += 4) {
    rgb[j++] = lut[rgba[i]!]!;
    rgb[j++] = lut[rgba[i + 1]!]!;
    rgb[j++] = lut[rgba[i + 2]!]!;
  }
  return rgb;
}
