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

/** A part whose ground receives the sun's shadows (the grounded background). */
export interface ShadowGround {
  /** Height of the ground in the world. */
  readonly groundY: number;
  /** How dark its shadows are: the sky's share of the light. */
  setShadowLevel(level: number): void;
}

/**
 * The part's ground, for the sun to set its shadow level, or null. Asked of the part rather
 * than of its class, so the grounded background's code loads only when one is made.
 * @param part the background part (null: none)
 */
export function groundOf(part: SkyboxPart | null): ShadowGround | null {
  const ground = part as Partial<ShadowGround> | null;
  return ground && typeof ground.groundY === "number" && typeof ground.setShadowLevel === "function" ? (ground as ShadowGround) : null;
}
