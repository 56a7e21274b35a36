/**
 * Image-based lighting: the prefiltered environment cube as `scene.environmentTexture`.
 * The same texture also feeds a blurred background, so it exists even when lighting is off
 * (`active` false): then it never becomes the scene's environment.
 */
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import type { Scene } from "@babylonjs/core/scene.js";
import type { EnvironmentTexture } from "./environment-loader.ts";
import type { SkyboxPart } from "../skybox-part.ts";

/** What the lighting part is made of. */
export interface SkyboxLightingInit {
  scene: Scene;
  /** The prefiltered environment (owned: disposed with the part). */
  texture: EnvironmentTexture;
  /** Whether it lights the scene (false: it only backs a blurred background). */
  active: boolean;
  /** scene.environmentIntensity while enabled. */
  intensity: number;
  /** Whether it came from a cache (kept in memory, or baked texels from IndexedDB). */
  fromCache: boolean;
}

export class SkyboxLighting implements SkyboxPart {
  readonly meshes = [];
  readonly materials = [];
  readonly texture: EnvironmentTexture;
  readonly active: boolean;
  readonly fromCache: boolean;
  private readonly _scene: Scene;
  private _intensity: number;
  private _enabled = false;
  private _disposed = false;

  /** @param init the scene, the texture, and how it lights */
  constructor(init: SkyboxLightingInit) {
    this._scene = init.scene;
    this.texture = init.texture;
    this.active = init.active;
    this._intensity = init.intensity;
    this.fromCache = init.fromCache;
  }

  get textures(): readonly BaseTexture[] {
    return this._disposed ? [] : [this.texture];
  }

  /** scene.environmentIntensity applied while enabled. */
  get intensity(): number {
    return this._intensity;
  }

  set intensity(value: number) {
    this._intensity = value;
    if (this._isSceneEnvironment()) this._scene.environmentIntensity = value;
  }

  setRotation(radians: number): void {
    this.texture.rotationY = radians;
  }

  setEnabled(enabled: boolean): void {
    this._enabled = enabled && this.active && !this._disposed;
    if (this._enabled) {
      this._scene.environmentTexture = this.texture;
      this._scene.environmentIntensity = this._intensity;
    } else if (this._isSceneEnvironment()) this._scene.environmentTexture = null;
  }

  dispose(): void {
    if (this._disposed) return;
    // Not referenced for one frame after its disposal: the scene lets go first.
    if (this._isSceneEnvironment()) this._scene.environmentTexture = null;
    this._disposed = true;
    this.texture.dispose();
  }

  private _isSceneEnvironment(): boolean {
    return this._scene.environmentTexture === this.texture;
  }
}
