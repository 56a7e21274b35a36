/**
 * Image-based lighting: the prefiltered environment cube as `scene.environmentTexture`.
 * The same texture also feeds a blurred background, so it exists even when lighting is off
 * (`active` false): then it never becomes the scene's environment.
 */
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import type { Scene } from "@babylonjs/core/scene.js";
import type { EnvironmentTexture } from "./environment-loader.ts";
import type { SkyboxPart } from "../skybox-part.ts";

export class SkyboxLighting implements SkyboxPart {
  readonly meshes = [];
  readonly materials = [];
  private _enabled = false;
  private _disposed = false;

  /**
   * @param _scene the scene
   * @param texture the prefiltered environment (owned: disposed with the part)
   * @param active whether it lights the scene (false: it only backs a blurred background)
   * @param _intensity scene.environmentIntensity while enabled
   * @param fromCache whether it came from a cache (kept in memory, or baked texels from IndexedDB)
   */
  constructor(
    private readonly _scene: Scene,
    readonly texture: EnvironmentTexture,
    readonly active: boolean,
    private _intensity: number,
    readonly fromCache: boolean,
  ) {}

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
