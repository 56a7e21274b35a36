/**
 * Shadows on the backdrop. Its materials are unlit (they show the panorama, light included),
 * so they cannot receive shadows; while the sun's shadows are on, each of its unlit textured
 * meshes shows the same texture through a `BackgroundMaterial` instead, which only darkens
 * what is shadowed, to `shadowLevel` of its colour. The backdrop's own materials come back
 * when the sun is hidden or disposed.
 */
import { BackgroundMaterial } from "@babylonjs/core/Materials/Background/backgroundMaterial.js";
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import type { Material } from "@babylonjs/core/Materials/material.js";
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh.js";
import type { Nullable } from "@babylonjs/core/types.js";

/** What the backdrop's meshes carry: glTF's KHR_materials_unlit and our own backdrop both make unlit PBR. */
type UnlitMaterial = Material & { unlit?: boolean; albedoTexture?: Nullable<BaseTexture> };

interface Swap {
  mesh: AbstractMesh;
  own: Material;
  shadowed: BackgroundMaterial;
}

export class BackdropShadows {
  private readonly _swaps: Swap[] = [];
  private _on = false;

  /**
   * @param meshes the backdrop's meshes (those without an unlit textured material are left alone)
   * @param name prefix of the materials' names
   */
  constructor(meshes: readonly AbstractMesh[], name: string) {
    for (const mesh of meshes) {
      const own = mesh.material as Nullable<UnlitMaterial>;
      if (!own?.unlit || !own.albedoTexture) continue;
      const shadowed = new BackgroundMaterial(`${name}-${this._swaps.length}`, mesh.getScene());
      shadowed.diffuseTexture = own.albedoTexture;
      // The texture as it is: no primary colour, no fading at grazing angles.
      shadowed.useRGBColor = true;
      shadowed.opacityFresnel = false;
      shadowed.backFaceCulling = own.backFaceCulling;
      this._swaps.push({ mesh, own, shadowed });
    }
  }

  /** The materials this created. */
  get materials(): readonly Material[] {
    return this._swaps.map((s) => s.shadowed);
  }

  /**
   * How much of its colour a shadowed point keeps (0..1).
   * @param level the sky's share of the light there
   */
  setShadowLevel(level: number): void {
    for (const s of this._swaps) s.shadowed.shadowLevel = level;
  }

  /**
   * Shows the shadow-receiving materials, or the backdrop's own.
   * @param on whether shadows show
   */
  setEnabled(on: boolean): void {
    if (on === this._on) return;
    this._on = on;
    for (const s of this._swaps) {
      if (s.mesh.isDisposed()) continue;
      s.mesh.material = on ? s.shadowed : s.own;
      s.mesh.receiveShadows = on;
    }
  }

  /** Gives the backdrop its materials back and disposes those this created (not the textures). */
  dispose(): void {
    this.setEnabled(false);
    for (const s of this._swaps) s.shadowed.dispose(false, false);
    this._swaps.length = 0;
  }
}
