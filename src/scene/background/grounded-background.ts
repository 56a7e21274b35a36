/**
 * The grounded background: the panorama on a sphere whose lower half is pressed flat onto
 * the scene's ground (y = 0), `height` under the projection centre (grounded-geometry.ts).
 * Objects standing at y = 0 stand on the picture's own ground, which stays under them as
 * the camera turns (a dome at infinity slides under them instead), and which receives their
 * shadows: an unlit `BackgroundMaterial` that only darkens what is shadowed, to its
 * `shadowLevel` (set by the sun to the sky's share of the light). A built-in material, so it
 * needs no shader of ours on WebGL or WebGPU.
 */
import { BackgroundMaterial } from "@babylonjs/core/Materials/Background/backgroundMaterial.js";
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import type { InternalTexture } from "@babylonjs/core/Materials/Textures/internalTexture.js";
import { Texture } from "@babylonjs/core/Materials/Textures/texture.js";
import type { Material } from "@babylonjs/core/Materials/material.js";
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh.js";
import { Mesh } from "@babylonjs/core/Meshes/mesh.js";
import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData.js";
import type { Scene } from "@babylonjs/core/scene.js";
import type { GroundShape } from "./flat-ground.ts";
import { groundedGeometry } from "./grounded-geometry.ts";
import { panoramaUrl } from "./panorama-image.ts";
import type { ShadowGround, SkyboxPart } from "../skybox-part.ts";

/** What a grounded background is made of. */
export interface GroundedParts {
  /** The grounded sphere (owned). */
  mesh: Mesh;
  /** Its material (owned). */
  material: BackgroundMaterial;
  /** The panorama (owned; its GPU texture may be shared with the engine's cache). */
  texture: Texture;
  /** Its height, radius and flat radius. */
  settings: GroundShape;
}

/** The panorama projected onto a flat ground and a sky sphere. */
export class GroundedBackground implements SkyboxPart, ShadowGround {
  readonly mesh: Mesh;
  readonly material: BackgroundMaterial;
  readonly texture: Texture;
  readonly settings: GroundShape;
  private _disposed = false;

  /** @param parts the sphere, its material and texture, and its settings */
  constructor(parts: GroundedParts) {
    this.mesh = parts.mesh;
    this.material = parts.material;
    this.texture = parts.texture;
    this.settings = parts.settings;
  }

  get textures(): readonly BaseTexture[] {
    return this._disposed ? [] : [this.texture];
  }
  get meshes(): readonly AbstractMesh[] {
    return this._disposed ? [] : [this.mesh];
  }
  get materials(): readonly Material[] {
    return this._disposed ? [] : [this.material];
  }

  /** Height of the ground in the world (the scene's y = 0). */
  readonly groundY = 0;

  /**
   * How much of its colour a shadowed point keeps (0..1).
   * @param level the sky's share of the light there
   */
  setShadowLevel(level: number): void {
    this.material.shadowLevel = level;
  }

  setRotation(radians: number): void {
    // The sphere is symmetric about its vertical axis: turning the mesh turns the content (sun-frame.ts).
    this.mesh.rotation.y = -radians;
  }

  setEnabled(enabled: boolean): void {
    this.mesh.setEnabled(enabled);
  }

  dispose(): void {
    if (this._disposed) return;
    this._disposed = true;
    this.mesh.dispose();
    this.material.dispose();
    this.texture.dispose();
  }
}

/**
 * The grounded background of a panorama file (JPG/PNG bytes), disabled until enabled.
 * @param scene the scene
 * @param bytes the panorama file
 * @param settings height, radius and flat radius
 * @param name unique name
 * @returns once the texture is loaded
 */
export async function createGroundedBackground(
  scene: Scene,
  bytes: Uint8Array,
  settings: GroundShape,
  name: string,
): Promise<GroundedBackground> {
  const { url } = await panoramaUrl(bytes, scene.getEngine().getCaps().maxTextureSize);
  try {
    return await groundedOf(scene, url, settings, name);
  } finally {
    URL.revokeObjectURL(url);
  }
}

/**
 * The grounded background on a panorama texture the engine's cache keeps (a revoked blob
 * URL: the engine's texture cache hands back the kept texture, nothing loads).
 * @param kept the panorama's GPU texture, held by the caller while this runs
 */
export async function createKeptGroundedBackground(
  scene: Scene,
  kept: InternalTexture,
  settings: GroundShape,
  name: string,
): Promise<GroundedBackground> {
  const part = await groundedOf(scene, kept.url, settings, name);
  if (part.texture.getInternalTexture() !== kept) {
    part.dispose();
    throw new Error("The kept panorama texture was not shared");
  }
  return part;
}

async function groundedOf(scene: Scene, url: string, settings: GroundShape, name: string): Promise<GroundedBackground> {
  let texture!: Texture;
  // Mipmapped: the ground is seen at grazing angles. Not flipped: v = 0 is the image's top row, the zenith.
  const loaded = new Promise<void>((resolve, reject) => {
    texture = new Texture(
      url,
      scene,
      false,
      false,
      Texture.TRILINEAR_SAMPLINGMODE,
      () => resolve(),
      (message) => reject(new Error(`The panorama could not be shown: ${message ?? "unknown error"}`)),
    );
  });
  texture.name = `${name}-texture`;
  texture.wrapU = Texture.WRAP_ADDRESSMODE;
  texture.wrapV = Texture.CLAMP_ADDRESSMODE;
  const material = new BackgroundMaterial(`${name}-material`, scene);
  material.diffuseTexture = texture;
  // The picture as it is: no primary colour, no fading at grazing angles, seen from inside.
  material.useRGBColor = true;
  material.opacityFresnel = false;
  material.backFaceCulling = false;
  material.shadowLevel = 0.5;
  const mesh = new Mesh(name, scene);
  const geometry = groundedGeometry(settings, scene.useRightHandedSystem);
  const data = new VertexData();
  data.positions = geometry.positions;
  data.uvs = geometry.uvs;
  data.indices = geometry.indices;
  // Shadow receivers read normals; the ground's face up (inward, towards the centre, all over).
  const normals = new Float32Array(geometry.positions.length);
  VertexData.ComputeNormals(geometry.positions, geometry.indices, normals);
  data.normals = normals;
  data.applyToMesh(mesh, false);
  mesh.position.y = settings.height;
  mesh.material = material;
  mesh.receiveShadows = true;
  mesh.isPickable = false;
  const part = new GroundedBackground({ mesh, material, texture, settings });
  part.setEnabled(false);
  part.setRotation(0);
  try {
    await loaded;
  } catch (error) {
    part.dispose();
    throw error;
  }
  return part;
}
