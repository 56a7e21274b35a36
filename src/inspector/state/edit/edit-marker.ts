import { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial.js";
import { Color3 } from "@babylonjs/core/Maths/math.color.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { CreateDisc } from "@babylonjs/core/Meshes/Builders/discBuilder.js";
import { CreateTorus } from "@babylonjs/core/Meshes/Builders/torusBuilder.js";
import type { Mesh } from "@babylonjs/core/Meshes/mesh.js";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import type { Scene } from "@babylonjs/core/scene.js";
import type { Direction } from "./sky-direction.ts";

/** Distance of the marker from the camera; it moves with the camera like the sky does. */
const DISTANCE = 50;
/** Largest half-angle drawn: a disc cannot show a hemisphere. */
const MAX_HALF_ANGLE = (80 * Math.PI) / 180;
export const EDIT_MARKER_NAME = "skybox-edit-marker";

/**
 * The translucent disc and ring that show where an Edit will change the sky: centred on the
 * picked direction, sized to the field of view, drawn over the scene and never picked.
 */
export class EditMarker {
  private readonly _root: TransformNode;
  private readonly _meshes: Mesh[];
  private readonly _materials: StandardMaterial[];

  public constructor(scene: Scene) {
    this._root = new TransformNode(EDIT_MARKER_NAME, scene);
    this._root.infiniteDistance = true;
    this._root.doNotSerialize = true;
    const fill = this._material(scene, "fill", 0.12);
    const line = this._material(scene, "ring", 0.9);
    const disc = CreateDisc(`${EDIT_MARKER_NAME}-disc`, { radius: 1, tessellation: 72, sideOrientation: 2 }, scene);
    const ring = CreateTorus(`${EDIT_MARKER_NAME}-ring`, { diameter: 2, thickness: 0.04, tessellation: 72 }, scene);
    ring.rotation.x = Math.PI / 2;
    disc.material = fill;
    ring.material = line;
    this._meshes = [disc, ring];
    this._materials = [fill, line];
    for (const mesh of this._meshes) {
      mesh.parent = this._root;
      mesh.isPickable = false;
      mesh.doNotSerialize = true;
      // Over the scene's meshes, so the region stays visible behind objects.
      mesh.renderingGroupId = 1;
    }
  }

  private _material(scene: Scene, part: string, alpha: number): StandardMaterial {
    const m = new StandardMaterial(`${EDIT_MARKER_NAME}-${part}`, scene);
    m.disableLighting = true;
    m.emissiveColor = new Color3(0.35, 0.75, 1);
    m.alpha = alpha;
    m.backFaceCulling = false;
    m.doNotSerialize = true;
    return m;
  }

  /**
   * Places the marker.
   * @param direction unit world direction of the centre
   * @param fovDegrees full field of view of the edited region
   */
  public place(direction: Direction, fovDegrees: number): void {
    const half = Math.min(MAX_HALF_ANGLE, (fovDegrees * Math.PI) / 360);
    this._root.position.set(direction.x * DISTANCE, direction.y * DISTANCE, direction.z * DISTANCE);
    this._root.lookAt(Vector3.Zero());
    const radius = DISTANCE * Math.tan(half);
    this._root.scaling.setAll(radius);
    this._root.setEnabled(true);
  }

  /** Hides the marker without disposing it. */
  public hide(): void {
    this._root.setEnabled(false);
  }

  /** Disposes the meshes and materials. */
  public dispose(): void {
    this._meshes.forEach((m) => m.dispose());
    this._materials.forEach((m) => m.dispose());
    this._root.dispose();
  }
}
