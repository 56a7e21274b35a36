/**
 * The backdrop: a sphere displaced by the skybox's depth, textured with its panorama, so the
 * camera sees parallax when it moves. It is centred on the active camera's position at apply
 * time and does not follow the camera (that is the point of it).
 */
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import type { Material } from "@babylonjs/core/Materials/material.js";
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh.js";
import type { Mesh } from "@babylonjs/core/Meshes/mesh.js";
import type { Scene } from "@babylonjs/core/scene.js";
import type { SkyboxPart } from "../skybox-part.ts";

/** Sky radius of the GLB export, in its units (metres). */
export const EXPORT_SKY_RADIUS = 500;

/** What a backdrop is made of. */
export interface BackdropParts {
  /** The mesh everything hangs from (owned); it carries position, scale and yaw. */
  root: Mesh;
  /** Meshes, materials and textures under it. */
  owned: { meshes: AbstractMesh[]; materials: Material[]; textures: BaseTexture[] };
  /** Yaw that lines the content up with the environment at rotation 0. */
  yawOffset: number;
  /** Disposes everything in `owned` (an asset container knows how). */
  release: () => void;
}

export class SkyboxBackdrop implements SkyboxPart {
  /** The mesh everything hangs from (owned); it carries position, scale and yaw. */
  readonly root: Mesh;
  private readonly _owned: BackdropParts["owned"];
  private readonly _yawOffset: number;
  private readonly _release: () => void;
  private _disposed = false;

  /** @param parts the root, what hangs from it, its yaw offset and how to release it */
  constructor(parts: BackdropParts) {
    this.root = parts.root;
    this._owned = parts.owned;
    this._yawOffset = parts.yawOffset;
    this._release = parts.release;
  }

  get meshes(): readonly AbstractMesh[] {
    return this._disposed ? [] : [this.root, ...this._owned.meshes];
  }
  get materials(): readonly Material[] {
    return this._disposed ? [] : this._owned.materials;
  }
  get textures(): readonly BaseTexture[] {
    return this._disposed ? [] : this._owned.textures;
  }

  setRotation(radians: number): void {
    // Turning a mesh by +a moves content from yaw y to y + a; the environment's rotationY
    // moves it the other way.
    this.root.rotation.y = this._yawOffset - radians;
  }

  setEnabled(enabled: boolean): void {
    this.root.setEnabled(enabled);
  }

  dispose(): void {
    if (this._disposed) return;
    this._disposed = true;
    this._release();
    this.root.dispose();
  }
}

/**
 * Puts the backdrop root around the active camera: its sky (at `unitRadius` in mesh units)
 * lands at `radius` scene units, 500 by default, and never past 0.8 of the far plane.
 * @param scene the scene
 * @param root the root mesh
 * @param unitRadius the sky's radius in the mesh's own units
 * @param radius wanted radius, or null for the default
 */
export function placeBackdrop(scene: Scene, root: Mesh, unitRadius: number, radius: number | null): void {
  const camera = scene.activeCamera;
  const maxZ = camera?.maxZ ?? 0;
  const limit = maxZ > 0 ? 0.8 * maxZ : Infinity;
  const r = Math.min(radius ?? EXPORT_SKY_RADIUS, limit);
  if (camera) root.position.copyFrom(camera.globalPosition);
  root.scaling.setAll(r / unitRadius);
  root.isPickable = false;
}
