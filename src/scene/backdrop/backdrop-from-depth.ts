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
import { directionOfUv } from "../../api/panorama/panorama-directions.ts";
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
  const { url } = await panoramaUrl(input.panorama, limit);
  let texture: Texture;
  try {
    texture = await new Promise<Texture>((resolve, reject) => {
      const t: Texture = new Texture(url, scene, {
        noMipmap: false,
        invertY: true,
        onLoad: () => resolve(t),
        onError: (message) => {
          t.dispose();
          reject(new Error(`The backdrop's panorama could not be loaded: ${message ?? "unknown error"}`));
        },
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

/** Vertex (i, j) at panorama (i / across, j / down); pole rows collapse to their mean radius. */
function sphereData(across: number, down: number, depth: DepthImage, depthScale: number, rightHanded: boolean): VertexData {
  const count = (across + 1) * (down + 1);
  const positions = new Float32Array(count * 3);
  const uvs = new Float32Array(count * 2);
  // The panorama's frame is right-handed; a left-handed scene flips z.
  const zSign = rightHanded ? 1 : -1;
  const direction = new Float64Array(3);
  for (let j = 0; j <= down; j++) {
    const v = j / down;
    const pole = j === 0 || j === down;
    let poleRadius = 0;
    if (pole) for (let i = 0; i < across; i++) poleRadius += backdropRadius(sample(depth, (i + 0.5) / across, v), depthScale) / across;
    for (let i = 0; i <= across; i++) {
      const u = pole ? (i + 0.5) / across : i / across;
      const r = pole ? poleRadius : backdropRadius(sample(depth, u, v), depthScale);
      const k = j * (across + 1) + i;
      directionOfUv(u, v, direction);
      positions[k * 3] = direction[0]! * r;
      positions[k * 3 + 1] = direction[1]! * r;
      positions[k * 3 + 2] = direction[2]! * r * zSign;
      uvs[k * 2] = u;
      uvs[k * 2 + 1] = 1 - v; // the texture is loaded with invertY: v = 1 is the image's top row
    }
  }
  const data = new VertexData();
  data.positions = positions;
  data.uvs = uvs;
  data.indices = indices(across, down, count);
  return data;
}

/** Two triangles per quad; the pole rows' quads degenerate into one. */
function indices(across: number, down: number, count: number): Uint16Array | Uint32Array {
  const out = count > 0xffff ? new Uint32Array(6 * across * (down - 1)) : new Uint16Array(6 * across * (down - 1));
  let o = 0;
  for (let j = 0; j < down; j++)
    for (let i = 0; i < across; i++) {
      const a = j * (across + 1) + i;
      const c = a + across + 1;
      if (j !== down - 1) o = triangle(out, o, a, c, c + 1);
      if (j !== 0) o = triangle(out, o, a, c + 1, a + 1);
    }
  return out;
}

/** Bilinear depth value at (u, v), wrapping in u. */
const sample = (depth: DepthImage, u: number, v: number) => sampleWrapped(depth.values, depth.width, depth.height, u, v);

/** Writes one triangle's corners at `o`; returns where the next one goes. */
function triangle(indices: Uint16Array | Uint32Array, o: number, a: number, b: number, c: number): number {
  indices[o] = a;
  indices[o + 1] = b;
  indices[o + 2] = c;
  return o + 3;
}
