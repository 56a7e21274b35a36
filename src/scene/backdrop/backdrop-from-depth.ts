/**
 * The Model 4 backdrop (Model 4 has no GLB export): the same kind of mesh as the GLB
 * exporter's, built here from the generation's depth map and panorama. A UV sphere of
 * radius 1 whose vertices come inwards by their depth (`backdropRadius`), directions
 * unchanged, so from the centre it looks exactly like the panorama.
 *
 * Built in the scene's frame from the panorama's directions (src/api/panorama/, a
 * right-handed frame: a left-handed scene flips z): u = 0.5 at +Z (left-handed) or -Z
 * (right-handed), u = 0.75 at +X, v = 0 up, which is where the environment cube shows
 * the same pixels.
 */
import type { MeshQualityKey } from "../../api/reference.ts";
import { PBRMaterial } from "@babylonjs/core/Materials/PBR/pbrMaterial.js";
import { Texture } from "@babylonjs/core/Materials/Textures/texture.js";
import { Mesh } from "@babylonjs/core/Meshes/mesh.js";
import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData.js";
import type { Scene } from "@babylonjs/core/scene.js";
import { placeBackdrop, SkyboxBackdrop } from "./backdrop.ts";
import { panoramaSphere } from "../../api/panorama/panorama-sphere.ts";
import { sampleWrapped } from "../../api/panorama/panorama-sampling.ts";
import { backdropRadius, decodeDepthPngInSlices, type DepthImage } from "../analysis/depth-decoding.ts";
import { nextTaskSlice, WorkSlices } from "../scheduling/work-slices.ts";
import { panoramaUrl } from "../background/panorama-image.ts";
import { timedStep } from "../scheduling/step-timing.ts";

/** Segments around and down, and the widest texture, per mesh quality (as the GLB export). */
export const DEPTH_MESH_SEGMENTS: Record<MeshQualityKey, { across: number; down: number; texture: number }> = {
  low: { across: 64, down: 32, texture: 2048 },
  medium: { across: 128, down: 64, texture: 4096 },
  high: { across: 256, down: 128, texture: 4096 },
  epic: { across: 512, down: 256, texture: 8192 },
};

/** What the depth backdrop is built from. */
export interface DepthBackdropInput {
  panorama: Uint8Array;
  /** The depth map PNG (decoded here in slices: depth-decoding.ts). */
  depthPng: Uint8Array;
  meshQuality: MeshQualityKey;
  depthScale: number;
  radius: number | null;
}

/**
 * Builds the backdrop, disabled until the part is enabled.
 * @param scene the scene
 * @param input panorama, decoded depth map and options
 * @param name unique name
 * @param signal stops the depth map's decoding between slices
 */
export async function buildDepthBackdrop(
  scene: Scene,
  input: DepthBackdropInput,
  name: string,
  signal?: AbortSignal,
): Promise<SkyboxBackdrop> {
  const depth = await decodeDepthPngInSlices(input.depthPng, new WorkSlices(nextTaskSlice, signal));
  const { across, down, texture: maxTexture } = DEPTH_MESH_SEGMENTS[input.meshQuality];
  const limit = Math.min(maxTexture, scene.getEngine().getCaps().maxTextureSize);
  const { url, blob } = await panoramaUrl(input.panorama, limit);
  let texture: Texture;
  try {
    // Decoded off the main thread and uploaded in one step; a bitmap is uploaded as it is (WebGL
    // ignores UNPACK_FLIP_Y for bitmaps), so the texture is not inverted and the uvs say so.
    const bitmap = await createImageBitmap(blob, { premultiplyAlpha: "none" });
    texture = await new Promise<Texture>((resolve, reject) => {
      const t: Texture = new Texture(url, scene, {
        noMipmap: false,
        invertY: false,
        buffer: bitmap,
        // Deferred: a bitmap loads (or fails) before the constructor returns.
        onLoad: () => queueMicrotask(() => resolve(t)),
        onError: (message) =>
          queueMicrotask(() => {
            t.dispose();
            reject(new Error(`The backdrop's panorama could not be loaded: ${message ?? "unknown error"}`));
          }),
      });
    });
  } finally {
    URL.revokeObjectURL(url);
  }
  texture.name = `${name}-texture`;
  texture.wrapV = Texture.CLAMP_ADDRESSMODE;
  const material = new PBRMaterial(`${name}-material`, scene);
  material.unlit = true;
  material.albedoTexture = texture;
  material.backFaceCulling = false;
  const mesh = new Mesh(`${name}-mesh`, scene);
  timedStep("backdrop-mesh", () => sphereData(across, down, depth, input.depthScale, scene.useRightHandedSystem).applyToMesh(mesh));
  mesh.material = material;
  mesh.isPickable = false;
  const root = new Mesh(name, scene);
  root.setEnabled(false);
  mesh.parent = root;
  const release = () => {
    mesh.dispose();
    material.dispose();
    texture.dispose();
  };
  const part = new SkyboxBackdrop({ root, owned: { meshes: [mesh], materials: [material], textures: [texture] }, yawOffset: 0, release });
  placeBackdrop(scene, root, 1, input.radius);
  part.setRotation(0);
  return part;
}

/** The depth mesh's sphere (panorama-sphere.ts) in the scene's frame, its uvs for a texture not inverted (v = 0 the image's top row). */
function sphereData(across: number, down: number, depth: DepthImage, depthScale: number, rightHanded: boolean): VertexData {
  const sphere = panoramaSphere(across, down, (u, v) => backdropRadius(sample(depth, u, v), depthScale));
  // The panorama's frame is right-handed; a left-handed scene flips z.
  if (!rightHanded) for (let k = 2; k < sphere.positions.length; k += 3) sphere.positions[k] = -sphere.positions[k]!;
  const data = new VertexData();
  data.positions = sphere.positions;
  data.uvs = sphere.uvs;
  data.indices = sphere.indices;
  return data;
}

/** Bilinear depth value at (u, v), wrapping in u. */
const sample = (depth: DepthImage, u: number, v: number) => sampleWrapped(depth.values, depth.width, depth.height, u, v);
