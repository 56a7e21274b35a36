import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import type { Material } from "@babylonjs/core/Materials/material.js";
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh.js";

/**
 * One part of an applied skybox (lighting, background, backdrop): what it created, and the
 * live changes the handle forwards to it. Parts are built disabled and enabled together, so
 * a replaced skybox is never seen half-built.
 */
export interface SkyboxPart {
  readonly textures: readonly BaseTexture[];
  readonly meshes: readonly AbstractMesh[];
  readonly materials: readonly Material[];
  /** Turns the content by `radians` around Y (the same convention for every part). */
  setRotation(radians: number): void;
  /** Shows or hides the part. */
  setEnabled(enabled: boolean): void;
  /** Releases everything the part created; safe to call twice. */
  dispose(): void;
}
