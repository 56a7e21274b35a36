/**
 * 3d-mesh-glb: the panorama on a sphere displaced by its depth, for a backdrop the viewer
 * can move a little inside (parallax), seen from the centre exactly as the panorama.
 *
 * Segments (around x down) by mesh quality, and the embedded texture's width:
 *   low 64x32 (2145 vertices, 2048 px), medium 128x64 (8385, 4096 px),
 *   high 256x128 (33153, 4096 px), epic 512x256 (131841, uint32 indices, 8192 px);
 * texture never wider than the stored panorama.
 *
 * Radius (glTF units = metres):  r = R * (1 - k * (1 - n)),  R = 500,  k = depthScale / 12
 *   n = 0..1 is the log-normalised distance of src/api/depth-encoding.ts (0 at 0.5 m, 1 at 1000 km
 *   and for the sky), bilinear over distance.f32 at the vertex direction. The sky stays
 *   at R; nearer things come inwards, more so with a larger depthScale (3..10: the nearest
 *   points sit at 75 % .. 17 % of R). Directions are never changed, so from the centre
 *   the mesh looks exactly like the panorama.
 *
 * Material: baseColorTexture (embedded JPEG), KHR_materials_unlit, single-sided with
 * triangles facing the centre. Axes: src/api/panorama/ (glTF's frame, centre at -Z).
 */
import { readFile, writeFile } from "node:fs/promises";
import sharp from "sharp";
import type { MeshQualityKey } from "../../../../api/reference.ts";
import type { ExportRequest, Size } from "../../contract.ts";
import { backdropRadius, encodeDistance16 } from "../../../../api/depth-encoding.ts";
import { sampleWrapped } from "../../../../api/panorama/panorama-sampling.ts";
import { ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER, GlbBinary, encodeGlb } from "../../formats/glb.ts";
import { buildSphere, type SphereMesh } from "./sphere-mesh.ts";
import { panoramaSize, readDistances, storedPath, type DistanceMap } from "../stored-skybox.ts";

export const MESH_SEGMENTS: Record<MeshQualityKey, { across: number; down: number; texture: number }> = {
  low: { across: 64, down: 32, texture: 2048 },
  medium: { across: 128, down: 64, texture: 4096 },
  high: { across: 256, down: 128, texture: 4096 },
  epic: { across: 512, down: 256, texture: 8192 },
};

export const SKY_RADIUS = 500;
export const DEFAULT_DEPTH_SCALE = 3;

/** The radius of a direction whose log-normalised distance is n (0..1). */
export function meshRadius(n: number, depthScale: number): number {
  // n is 1 - nearness (log-normalised distance); the shared formula takes the 16-bit value.
  return SKY_RADIUS * backdropRadius((1 - n) * 65535, depthScale);
}

export async function exportMeshGlb(req: ExportRequest, path: string): Promise<void> {
  const quality = req.meshQuality ?? "medium";
  const depthScale = req.depthScale ?? DEFAULT_DEPTH_SCALE;
  const { across, down, texture } = MESH_SEGMENTS[quality];
  const nearness = logDistanceSampler(await readDistances(req.from));
  const mesh = buildSphere(across, down, (u, v) => meshRadius(nearness(u, v), depthScale));
  const jpeg = await textureJpeg(req.from, texture);
  const glb = assemble(mesh, jpeg, { meshQuality: quality, depthScale });
  await writeFile(path, glb);
}

/** Bilinear sampler (wrapping in u) of n = log-normalised distance over the distance map. */
function logDistanceSampler(map: DistanceMap): (u: number, v: number) => number {
  const { width, height } = map;
  const n = new Float32Array(map.metres.length);
  for (let i = 0; i < n.length; i++) n[i] = 1 - encodeDistance16(map.metres[i]!) / 65535;
  return (u, v) => sampleWrapped(n, width, height, u, v);
}

/** The panorama as a JPEG at most `maxWidth` wide: the stored file itself when it fits. */
async function textureJpeg(dir: string, maxWidth: number): Promise<Uint8Array> {
  const stored: Size = await panoramaSize(dir);
  if (stored.width <= maxWidth) return readFile(storedPath(dir, "image"));
  const jpeg = await sharp(storedPath(dir, "image"))
    .resize(maxWidth, maxWidth / 2, { fit: "fill", kernel: "lanczos3" })
    .jpeg({ quality: 90, chromaSubsampling: "4:4:4" })
    .toBuffer();
  return new Uint8Array(jpeg.buffer, jpeg.byteOffset, jpeg.length);
}

function assemble(mesh: SphereMesh, jpeg: Uint8Array, extras: Record<string, unknown>): Uint8Array {
  const bin = new GlbBinary();
  const positionView = bin.add(mesh.positions, ARRAY_BUFFER);
  const uvView = bin.add(mesh.uvs, ARRAY_BUFFER);
  const indexView = bin.add(mesh.indices, ELEMENT_ARRAY_BUFFER);
  const imageView = bin.add(jpeg);
  const vertices = mesh.positions.length / 3;
  const json = {
    asset: { version: "2.0", generator: "babylon-skybox local exporter", extras },
    extensionsUsed: ["KHR_materials_unlit"],
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ name: "skybox-backdrop", mesh: 0 }],
    meshes: [{ name: "skybox-backdrop", primitives: [{ attributes: { POSITION: 0, TEXCOORD_0: 1 }, indices: 2, material: 0 }] }],
    materials: [
      {
        name: "skybox-panorama",
        pbrMetallicRoughness: { baseColorTexture: { index: 0 }, metallicFactor: 0, roughnessFactor: 1 },
        extensions: { KHR_materials_unlit: {} },
      },
    ],
    textures: [{ sampler: 0, source: 0 }],
    // Linear filtering with mipmaps; u repeats across the seam, v clamps at the poles.
    samplers: [{ magFilter: 9729, minFilter: 9987, wrapS: 10497, wrapT: 33071 }],
    images: [{ bufferView: imageView, mimeType: "image/jpeg" }],
    accessors: [
      { bufferView: positionView, componentType: 5126, count: vertices, type: "VEC3", min: mesh.min, max: mesh.max },
      { bufferView: uvView, componentType: 5126, count: vertices, type: "VEC2" },
      {
        bufferView: indexView,
        componentType: mesh.indices instanceof Uint32Array ? 5125 : 5123,
        count: mesh.indices.length,
        type: "SCALAR",
      },
    ],
    bufferViews: bin.bufferViews,
    buffers: [{ byteLength: bin.byteLength }],
  };
  return encodeGlb(json, bin.bytes());
}
