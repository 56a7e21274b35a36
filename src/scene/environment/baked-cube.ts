/**
 * A baked environment (baked-texels.ts) back on the GPU: a half-float RawCubeTexture whose
 * mips are uploaded as they were read back, with the LOD settings and harmonics of the
 * environment it was baked from. Nothing is decoded or rendered on the way.
 */
import type { AbstractEngine } from "@babylonjs/core/Engines/abstractEngine.js";
import { Constants } from "@babylonjs/core/Engines/constants.js";
import type { InternalTexture } from "@babylonjs/core/Materials/Textures/internalTexture.js";
import { RawCubeTexture } from "@babylonjs/core/Materials/Textures/rawCubeTexture.js";
import { SphericalPolynomial } from "@babylonjs/core/Maths/sphericalPolynomial.js";
import type { Scene } from "@babylonjs/core/scene.js";
import { decodeBakedTexels } from "../baking/baked-texels.ts";

/** What uploads one mip of one face (WebGL, WebGPU and Native engines all have it). */
type MipUpload = { _uploadArrayBufferViewToTexture(texture: InternalTexture, data: ArrayBufferView, face: number, mip: number): void };

/**
 * The environment baked in `bytes`, ready to light with.
 * @param scene the scene
 * @param bytes a baked environment
 * @param name unique texture name
 * @returns the texture; throws when the bytes are not a complete baked environment
 */
export function cubeFromTexels(scene: Scene, bytes: Uint8Array, name: string): RawCubeTexture {
  const { header, levels } = decodeBakedTexels(bytes);
  const engine = scene.getEngine() as AbstractEngine & Partial<MipUpload>;
  if (typeof engine._uploadArrayBufferViewToTexture !== "function")
    throw new Error("This engine cannot upload the mips of a baked environment");
  const { TEXTUREFORMAT_RGBA: RGBA, TEXTURETYPE_HALF_FLOAT: HALF, TEXTURE_TRILINEAR_SAMPLINGMODE: TRILINEAR } = Constants;
  const texture = new RawCubeTexture(scene, null, header.size, RGBA, HALF, true, false, TRILINEAR);
  texture.name = name;
  const internal = texture.getInternalTexture()!;
  // Made with mips (trilinear sampling through explicit LODs) but never generated: every level is the baked one.
  levels.forEach((faces, mip) => faces.forEach((data, face) => engine._uploadArrayBufferViewToTexture!(internal, data, face, mip)));
  texture.gammaSpace = false;
  texture.lodGenerationScale = header.lodGenerationScale;
  texture.lodGenerationOffset = header.lodGenerationOffset;
  texture.sphericalPolynomial = SphericalPolynomial.FromArray(header.polynomial);
  return texture;
}
