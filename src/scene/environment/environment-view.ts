/**
 * A second texture object over an environment's GPU texture: what a re-apply of the same
 * skybox lights with when the environment cache keeps it, or while the first apply's
 * background bake still runs (no download, no prefiltering), and what a bake reads whoever
 * disposes their own texture meanwhile. The
 * GPU texture is reference-counted: each view holds one reference and drops it on disposal.
 * Everything an environment needs (harmonics, LOD scale, RGBD, irradiance) lives on the GPU
 * texture; the view copies the little that lives on the texture object and turns like a
 * cube texture does.
 */
import type { BaseTexture as BaseTextureType } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import { InternalTexture } from "@babylonjs/core/Materials/Textures/internalTexture.js";
import { Constants } from "@babylonjs/core/Engines/constants.js";
import { Matrix } from "@babylonjs/core/Maths/math.vector.js";
import type { Scene } from "@babylonjs/core/scene.js";
import type { EnvironmentTexture } from "./environment-loader.ts";

export class EnvironmentView extends BaseTexture {
  private _rotationY = 0;
  private _matrix = Matrix.Identity();

  /**
   * @param scene the scene the view belongs to
   * @param source a loaded environment texture, or the GPU texture of one (a cube sampled as
   *   cube textures are); the GPU texture gains a reference
   * @param name unique texture name
   */
  constructor(scene: Scene, source: (BaseTextureType & Partial<Pick<EnvironmentTexture, "rotationY">>) | InternalTexture, name?: string) {
    const internal = source instanceof InternalTexture ? source : source.getInternalTexture();
    if (!internal) throw new Error("The environment texture is not loaded");
    internal.incrementReferences();
    super(scene, internal);
    if (source instanceof InternalTexture) {
      this.name = name ?? "environment-view";
      this.coordinatesMode = Constants.TEXTURE_CUBIC_MODE;
      return;
    }
    this.name = name ?? `${source.name}-view`;
    this.coordinatesMode = source.coordinatesMode;
    this.invertZ = source.invertZ;
    this.lodLevelInAlpha = source.lodLevelInAlpha;
    this.rotationY = source.rotationY ?? 0;
  }

  /** Rotation around Y (radians), as CubeTexture.rotationY. */
  get rotationY(): number {
    return this._rotationY;
  }

  set rotationY(value: number) {
    this._rotationY = value;
    const next = Matrix.RotationY(value);
    // Materials compile a rotation in or out: tell them when it appears or goes.
    if (next.isIdentity() !== this._matrix.isIdentity())
      this.getScene()?.markAllMaterialsAsDirty(1, (m) => m.getActiveTextures().includes(this));
    this._matrix = next;
  }

  override getReflectionTextureMatrix(): Matrix {
    return this._matrix;
  }
}
