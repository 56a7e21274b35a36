/**
 * The visible background, two ways:
 * - blur 0: a PhotoDome showing the panorama itself at full resolution (direct UV mapping);
 * - blur > 0: a box with a BackgroundMaterial sampling the prefiltered environment cube at
 *   the mip the blur asks for (GGX-correct; the cube's lower resolution no longer shows).
 * Both sit at "infinite distance" around the camera and draw behind everything within
 * 0.9 of the camera's far plane.
 */
import { Constants } from "@babylonjs/core/Engines/constants.js";
import type { PhotoDome } from "@babylonjs/core/Helpers/photoDome.js";
import { BackgroundMaterial } from "@babylonjs/core/Materials/Background/backgroundMaterial.js";
import { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import type { InternalTexture } from "@babylonjs/core/Materials/Textures/internalTexture.js";
import type { Material } from "@babylonjs/core/Materials/material.js";
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh.js";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder.js";
import type { Mesh } from "@babylonjs/core/Meshes/mesh.js";
import type { Scene } from "@babylonjs/core/scene.js";
// PhotoDome adds a material-less (disabled) half-dome mask; scene.isReady() then asks for the
// default material, which only exists once StandardMaterial has registered its factory.
import "@babylonjs/core/Materials/standardMaterial.js";
import { panoramaUrl } from "./panorama-image.ts";
import type { SkyboxPart } from "../skybox-part.ts";

/** Distance of the background from the camera: inside the far plane, behind the backdrop. */
export function backgroundRadius(scene: Scene): number {
  const maxZ = scene.activeCamera?.maxZ ?? 0;
  return 0.9 * (maxZ > 0 ? maxZ : 10_000);
}

/** The panorama on a photo dome. */
export class DomeBackground implements SkyboxPart {
  private _disposed = false;

  /** @param dome the dome (owned) */
  constructor(readonly dome: PhotoDome) {}

  get textures(): readonly BaseTexture[] {
    return this._disposed ? [] : [this.dome.texture];
  }
  get meshes(): readonly AbstractMesh[] {
    return this._disposed ? [] : [this.dome.mesh];
  }
  get materials(): readonly Material[] {
    return this._disposed ? [] : [this.dome.material];
  }

  setRotation(radians: number): void {
    // The dome's UVs put u = 0.5 a quarter turn away from the environment cube's. (A
    // right-handed scene sees the geometry mirrored, which a negative x scale undoes.)
    this.dome.rotation.y = Math.PI / 2 - radians;
  }

  setEnabled(enabled: boolean): void {
    this.dome.setEnabled(enabled);
  }

  dispose(): void {
    if (this._disposed) return;
    this._disposed = true;
    this.dome.dispose(false, true);
  }
}

/**
 * Shows the panorama (JPG/PNG bytes) on a PhotoDome, disabled until the part is enabled.
 * @param scene the scene
 * @param bytes the panorama file
 * @param name unique name
 * @returns once the texture is loaded
 */
export async function createDomeBackground(scene: Scene, bytes: Uint8Array, name: string): Promise<DomeBackground> {
  const { url, blob } = await panoramaUrl(bytes, scene.getEngine().getCaps().maxTextureSize);
  try {
    return await domeOf(scene, url, name, blob);
  } finally {
    URL.revokeObjectURL(url);
  }
}

/**
 * The dome of a panorama texture kept on the GPU (environment-cache.ts): the texture asks
 * the engine's texture cache for its URL first, so the new dome shares the kept texture and
 * loads nothing. (The URL is a revoked blob URL: no other texture can ever ask for it.)
 * @param scene the scene
 * @param kept the panorama's GPU texture, held by the caller while this runs
 * @param name unique name
 */
export async function createKeptDomeBackground(scene: Scene, kept: InternalTexture, name: string): Promise<DomeBackground> {
  const part = await domeOf(scene, kept.url, name);
  if (part.dome.texture.getInternalTexture() !== kept) {
    part.dispose();
    throw new Error("The kept panorama texture was not shared");
  }
  return part;
}

/** The dome of `url`; with the picture's `blob`, decoded off the main thread (bitmap-dome.ts, loaded on first use: its sphere is made once). */
async function domeOf(scene: Scene, url: string, name: string, blob?: Blob): Promise<DomeBackground> {
  const dome = await (await import("./bitmap-dome.ts")).createDome({ name, url, blob, size: 2 * backgroundRadius(scene), scene });
  const part = new DomeBackground(dome);
  dome.setEnabled(false);
  dome.infiniteDistance = true; // on the dome itself: its mesh is parented
  dome.mesh.isPickable = false;
  if (scene.useRightHandedSystem) dome.scaling.x = -1;
  part.setRotation(0);
  try {
    await new Promise<void>((resolve, reject) => {
      // A decoded bitmap is uploaded as the dome is made: loaded before anyone could listen.
      if (dome.texture.isReady()) return resolve();
      dome.onLoadObservable.addOnce(() => resolve());
      dome.onLoadErrorObservable.addOnce((message) => reject(new Error(`The panorama could not be shown: ${message}`)));
    });
  } catch (error) {
    part.dispose();
    throw error;
  }
  return part;
}

/** The prefiltered environment on a box, blurred. */
export class BlurredBackground implements SkyboxPart {
  private _disposed = false;

  /**
   * @param box the box (owned)
   * @param material its material (owned)
   * @param texture the view of the environment's GPU texture (owned; the GPU texture is shared)
   */
  constructor(
    readonly box: Mesh,
    readonly material: BackgroundMaterial,
    readonly texture: BaseTexture,
  ) {}

  get textures(): readonly BaseTexture[] {
    return this._disposed ? [] : [this.texture];
  }
  get meshes(): readonly AbstractMesh[] {
    return this._disposed ? [] : [this.box];
  }
  get materials(): readonly Material[] {
    return this._disposed ? [] : [this.material];
  }

  setRotation(radians: number): void {
    // Skybox mode samples by the box's local position: turning the box turns the content.
    this.box.rotation.y = -radians;
  }

  setEnabled(enabled: boolean): void {
    this.box.setEnabled(enabled);
  }

  dispose(): void {
    if (this._disposed) return;
    this._disposed = true;
    this.box.dispose();
    this.material.dispose();
    this.texture.dispose(); // drops one reference; the environment keeps the GPU texture
  }
}

/**
 * A blurred background on the (prefiltered, ready) environment cube. It gets its own texture
 * object over the same GPU texture: the coordinates mode lives on the texture object, and
 * cloning would re-upload a RawCubeTexture with the wrong pixel type after prefiltering.
 * @param scene the scene
 * @param environment the prefiltered environment
 * @param blur 0..1
 * @param name unique name
 */
export function createBlurredBackground(scene: Scene, environment: BaseTexture, blur: number, name: string): BlurredBackground {
  const internal = environment.getInternalTexture();
  if (!internal) throw new Error("The environment texture is not loaded");
  internal.incrementReferences();
  const texture = new BaseTexture(scene, internal);
  texture.name = `${name}-texture`;
  texture.coordinatesMode = Constants.TEXTURE_SKYBOX_MODE;
  const material = new BackgroundMaterial(`${name}-material`, scene);
  material.reflectionTexture = texture;
  material.reflectionBlur = blur;
  material.backFaceCulling = false;
  // Half the box's diagonal must stay inside the far plane.
  const box = CreateBox(name, { size: (2 * backgroundRadius(scene)) / Math.sqrt(3) }, scene);
  box.material = material;
  box.infiniteDistance = true;
  box.isPickable = false;
  const part = new BlurredBackground(box, material, texture);
  part.setEnabled(false);
  part.setRotation(0);
  return part;
}
