/**
 * The sun's shadows: a shadow generator (standard, or cascaded where the engine supports it)
 * whose casters are the scene's own meshes, found again on every shadow-map render (meshes
 * added, removed, shown or hidden later count too), and which those meshes receive.
 *
 * The skybox's meshes never cast: the backdrop surrounds the scene, its sky would shade
 * everything, and it would stretch the shadow map over hundreds of metres. The backdrop
 * receives through its own materials (backdrop-shadows.ts).
 */
import type { DirectionalLight } from "@babylonjs/core/Lights/directionalLight.js";
import { CascadedShadowGenerator } from "@babylonjs/core/Lights/Shadows/cascadedShadowGenerator.js";
import { ShadowGenerator } from "@babylonjs/core/Lights/Shadows/shadowGenerator.js";
import "@babylonjs/core/Lights/Shadows/shadowGeneratorSceneComponent.js";
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh.js";
import type { Observer } from "@babylonjs/core/Misc/observable.js";
import type { Scene } from "@babylonjs/core/scene.js";
import type { Nullable } from "@babylonjs/core/types.js";
import type { ResolvedSun } from "./sun-options.ts";

/**
 * Suns keeping each mesh receiving that did not before: a replacing skybox's sun takes over
 * the meshes while the replaced one still holds them, and the last to go gives them back.
 * Per mesh, not per sun (no one sun owns the count); weak: a disposed mesh goes with its entry.
 */
const holders = new WeakMap<AbstractMesh, number>();

/** How a sun's shadows are made. */
export interface SunShadowsInit {
  /** Map size and kind of generator. */
  options: Pick<ResolvedSun, "shadowMapSize" | "cascaded">;
  /** True for the meshes of the skybox itself (never casters nor receivers). */
  skyboxMesh: (mesh: AbstractMesh) => boolean;
  /** Height of a grounded background's ground, which receives without casting (null: none). */
  groundY?: number | null;
}

/** A sun's shadow generator and the receivers it switched on. */
export class SunShadows {
  readonly generator: ShadowGenerator;
  /** Meshes this made receive shadows (given back on disposal). */
  private readonly _switched = new Set<AbstractMesh>();
  private _newMeshObserver: Nullable<Observer<AbstractMesh>>;
  private _frameObserver: Nullable<Observer<Scene>>;

  private readonly _skyboxMesh: (mesh: AbstractMesh) => boolean;

  /**
   * @param light the sun light
   * @param init the generator's settings, the skybox's own meshes and its ground
   */
  constructor(light: DirectionalLight, init: SunShadowsInit) {
    const { options, skyboxMesh, groundY = null } = init;
    this._skyboxMesh = skyboxMesh;
    const scene = light.getScene();
    // The shadow map's depth range fits the casters, so the biases are fractions of the scene, not of the camera's range.
    light.autoCalcShadowZBounds = true;
    const cascaded = options.cascaded && CascadedShadowGenerator.IsSupported;
    const generator = cascaded ? cascades(options.shadowMapSize, light) : new ShadowGenerator(options.shadowMapSize, light);
    // Soft edges with little cost (Poisson sampling where WebGL 2 is missing); biases for
    // scenes in metres, where a plane both casts and receives.
    generator.usePercentageCloserFiltering = true;
    generator.filteringQuality = ShadowGenerator.QUALITY_MEDIUM;
    generator.bias = 0.002;
    generator.normalBias = 0.02;
    generator.getShadowMap()!.renderListPredicate = (mesh) => this._casts(mesh);
    this.generator = generator;
    for (const mesh of scene.meshes) this._receive(mesh);
    // Babylon announces a new mesh on the next tick, once its constructor has run.
    this._newMeshObserver = scene.onNewMeshAddedObservable.add((mesh) => this._receive(mesh));
    // With no caster the light's shadow frustum is undefined and receivers would be shaded at random: no shadows then.
    // A ground that does not cast lies beyond the casters' depth range where their shadows
    // reach it (the cascades fit the depths the camera sees, the ground included).
    const fitGround = groundY !== null && !cascaded;
    if (fitGround) light.autoCalcShadowZBounds = false;
    this._frameObserver = scene.onBeforeRenderObservable.add(() => {
      const casters = scene.meshes.filter((mesh) => this._casts(mesh));
      const any = casters.length > 0;
      if (light.shadowEnabled !== any) light.shadowEnabled = any;
      if (any && fitGround) fitDepthToGround(light, casters, groundY);
    });
  }

  /** The shadow map (a render target the skybox owns). */
  get textures() {
    const map = this.generator.getShadowMap();
    return map ? [map] : [];
  }

  /** Stops receiving new meshes, gives receivers back their setting, disposes the generator and its map. */
  dispose(): void {
    const scene = this.generator.getLight().getScene();
    scene.onNewMeshAddedObservable.remove(this._newMeshObserver);
    scene.onBeforeRenderObservable.remove(this._frameObserver);
    this._newMeshObserver = null;
    this._frameObserver = null;
    for (const mesh of this._switched) {
      const left = (holders.get(mesh) ?? 1) - 1;
      if (left > 0) holders.set(mesh, left);
      else {
        holders.delete(mesh);
        if (!mesh.isDisposed()) mesh.receiveShadows = false;
      }
    }
    this._switched.clear();
    this.generator.dispose();
  }

  private _casts(mesh: AbstractMesh): boolean {
    return mesh.isEnabled() && mesh.isVisible && mesh.getTotalVertices() > 0 && !mesh.infiniteDistance && !this._skyboxMesh(mesh);
  }

  private _receive(mesh: AbstractMesh): void {
    if (this._switched.has(mesh) || this._skyboxMesh(mesh)) return;
    const held = holders.get(mesh) ?? 0;
    // Receiving already, and not because of a sun: the application's choice, left alone.
    if (mesh.receiveShadows && held === 0) return;
    mesh.receiveShadows = true;
    holders.set(mesh, held + 1);
    this._switched.add(mesh);
  }
}

/**
 * The shadow map's depth range over the casters and their shadows on the ground at `groundY`:
 * each bounding-box corner, and where the light's ray through it meets the ground. Depths
 * are along the light from its position (the shadow generator looks from there, left-handed).
 */
function fitDepthToGround(light: DirectionalLight, casters: readonly AbstractMesh[], groundY: number): void {
  const d = light.direction.normalizeToNew();
  const p = light.position;
  // How much further along the light the ground lies per unit of height (a low sun: far).
  const perHeight = d.y < -1e-3 ? 1 / -d.y : 0;
  let min = Number.MAX_VALUE;
  let max = -Number.MAX_VALUE;
  for (const mesh of casters) {
    for (const v of mesh.getBoundingInfo().boundingBox.vectorsWorld) {
      const z = (v.x - p.x) * d.x + (v.y - p.y) * d.y + (v.z - p.z) * d.z;
      min = Math.min(min, z);
      max = Math.max(max, z + Math.max(0, v.y - groundY) * perHeight);
    }
  }
  light.shadowMinZ = min;
  light.shadowMaxZ = max;
}

/** Cascades fitted to the depths the camera sees (a depth pass), not to its whole range: a far plane of 2000 would leave the first cascade coarse. */
function cascades(size: number, light: DirectionalLight): CascadedShadowGenerator {
  const generator = new CascadedShadowGenerator(size, light);
  generator.autoCalcDepthBounds = true;
  return generator;
}
