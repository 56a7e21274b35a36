/**
 * The skybox's sun as a light: a `DirectionalLight` shining from the sun found in the HDRI,
 * in the frame the background and the environment are shown in (handedness and rotation),
 * with its colour and irradiance, its shadows, and the environment balanced so nothing is
 * lit twice. One part of an applied skybox: built hidden, shown with the others, turned by
 * `setRotation`, disposed with the skybox.
 */
import type { ShadowGround } from "../skybox-part.ts";
import { DirectionalLight } from "@babylonjs/core/Lights/directionalLight.js";
import type { Material } from "@babylonjs/core/Materials/material.js";
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import { Color3 } from "@babylonjs/core/Maths/math.color.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { SphericalPolynomial } from "@babylonjs/core/Maths/sphericalPolynomial.js";
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh.js";
import { Observable } from "@babylonjs/core/Misc/observable.js";
import type { Scene } from "@babylonjs/core/scene.js";
import type { Nullable } from "@babylonjs/core/types.js";
import type { ShadowGenerator } from "@babylonjs/core/Lights/Shadows/shadowGenerator.js";
import type { SkyboxLighting } from "../environment/lighting.ts";
import type { SkyboxPart } from "../skybox-part.ts";
import { BackdropShadows } from "./backdrop-shadows.ts";
import type { DetectedSun } from "../analysis/detect-sun.ts";
import { balanceEnvironment } from "./environment-balance.ts";
import { worldDirection } from "./sun-frame.ts";
import { sunPolynomial, upwardIrradiance, withoutSun } from "./sun-harmonics.ts";
import type { ResolvedSun } from "./sun-options.ts";
import { SunShadows } from "./sun-shadows.ts";

/** Distance of the light from the origin, along the sun's direction (shadow maps fit their casters whatever it is). */
const LIGHT_DISTANCE = 100;

/** The other parts of the skybox, which the sun balances, shades and leaves out of its shadows. */
export interface SunNeighbours {
  lighting: Nullable<SkyboxLighting>;
  backdropMeshes: readonly AbstractMesh[];
  /** Every mesh of the skybox (neither casts nor receives the sun's shadows, apart from the backdrop's own way). */
  skyboxMeshes: readonly AbstractMesh[];
  /** The grounded background, which receives the sun's shadows at the sky's share of the light, at its ground's height. */
  ground?: Nullable<ShadowGround>;
}

/** What a `SkyboxSun` is made of. */
export interface SkyboxSunInit {
  scene: Scene;
  /** The sun found in the HDRI (panorama frame). */
  sun: DetectedSun;
  /** The `sun` option, resolved. */
  options: ResolvedSun;
  /** The skybox's other parts. */
  neighbours: SunNeighbours;
  /** Unique name of the light. */
  name: string;
  /** The environment's cube size when made from the sun's panorama, else null. */
  cubeSize?: number | null;
}

/** The sun of a skybox as a `DirectionalLight` with shadows (`AppliedSkybox.sun`). */
export class SkyboxSun implements SkyboxPart {
  /** The sun light (disabled while the sun is hidden). */
  readonly light: DirectionalLight;
  /** Notified when the light changes: turned, shown or hidden, stronger or weaker, disposed. */
  readonly onChangedObservable = new Observable<SkyboxSun>();
  readonly meshes: readonly AbstractMesh[] = [];
  private readonly _shadows: Nullable<SunShadows>;
  private readonly _backdrop: Nullable<BackdropShadows>;
  private readonly _polynomial: SphericalPolynomial;
  private _restoreEnvironment: Nullable<() => void> = null;
  private _enabled = false;
  private _disposed = false;

  /** The sun as found in the HDRI, in the panorama's frame. */
  readonly sun: DetectedSun;
  readonly options: ResolvedSun;
  /** The environment's cube size when it is made from the panorama the sun was found in (its share is then taken out texel by texel), else null. */
  readonly cubeSize: number | null;
  private readonly _neighbours: SunNeighbours;

  /**
   * Built by `applySkybox`; not meant to be constructed directly.
   * @param init the scene, the sun found, its options, the skybox's other parts, the light's name
   */
  constructor(init: SkyboxSunInit) {
    const { scene, sun, options, name } = init;
    const cubeSize = init.cubeSize ?? null;
    const _neighbours = init.neighbours;
    this.sun = sun;
    this.options = options;
    this.cubeSize = cubeSize;
    this._neighbours = _neighbours;
    this._polynomial = sunPolynomial(sun, cubeSize);
    this.light = new DirectionalLight(name, Vector3.Down(), scene);
    this.light.setEnabled(false);
    this.light.diffuse = new Color3(...sun.color);
    // Balanced, the environment keeps the sun in its reflections: the light adds no highlight of its own.
    this.light.specular = options.balance ? Color3.Black() : new Color3(...sun.color);
    const skybox = new Set(_neighbours.skyboxMeshes);
    this._shadows = options.shadows
      ? new SunShadows(this.light, {
          options,
          skyboxMesh: (mesh) => skybox.has(mesh),
          groundY: _neighbours.ground ? _neighbours.ground.groundY : null,
        })
      : null;
    this._backdrop =
      options.shadows && _neighbours.backdropMeshes.length ? new BackdropShadows(_neighbours.backdropMeshes, `${name}-backdrop`) : null;
    this.setRotation(0);
    this.refresh();
  }

  /** The shadow generator (a `CascadedShadowGenerator` with `cascaded`), or null with `shadows: false`. */
  get shadowGenerator(): Nullable<ShadowGenerator> {
    return this._shadows?.generator ?? null;
  }
  /** World direction towards the sun (the light shines the opposite way). */
  get direction(): Vector3 {
    return this.light.direction.negate();
  }
  /** True while the light shines. */
  get isEnabled(): boolean {
    return this._enabled;
  }
  /** True once disposed. */
  get isDisposed(): boolean {
    return this._disposed;
  }
  /** The shadow map textures it created. */
  get textures(): readonly BaseTexture[] {
    return this._disposed ? [] : (this._shadows?.textures ?? []);
  }
  /** The backdrop materials it created to receive shadows. */
  get materials(): readonly Material[] {
    return this._disposed ? [] : (this._backdrop?.materials ?? []);
  }

  setRotation(radians: number): void {
    if (this._disposed) return;
    const towards = worldDirection(this.sun.direction, this.light.getScene().useRightHandedSystem, radians);
    this.light.direction = towards.negate();
    this.light.position = towards.scale(LIGHT_DISTANCE);
    this.onChangedObservable.notifyObservers(this);
  }

  /** Turns the light (and its shadows on the backdrop) on or off. */
  setEnabled(enabled: boolean): void {
    if (this._disposed) return;
    this._enabled = enabled;
    this.light.setEnabled(enabled);
    this._backdrop?.setEnabled(enabled);
    this._restoreEnvironment?.();
    this._restoreEnvironment = null;
    const lighting = this._neighbours.lighting;
    if (enabled && this.options.balance && lighting?.active)
      this._restoreEnvironment = balanceEnvironment(lighting.texture, this._polynomial);
    // The environment's harmonics may have arrived since (images compute them lazily).
    this._setShadowLevel();
    this.onChangedObservable.notifyObservers(this);
  }

  /**
   * Sets the light's intensity from the sun's irradiance, the `intensity` option and the
   * environment's intensity (the light stands for part of the environment, so it follows it),
   * and the backdrop's shadow level.
   */
  refresh(): void {
    if (this._disposed) return;
    const environmentIntensity = this._neighbours.lighting?.intensity ?? 1;
    this.light.intensity = this.sun.intensity * this.options.intensity * environmentIntensity;
    this._setShadowLevel();
    this.onChangedObservable.notifyObservers(this);
  }

  /** Removes the light, its shadows and the balance; notifies once more (`isDisposed` true). */
  dispose(): void {
    if (this._disposed) return;
    this._restoreEnvironment?.();
    this._restoreEnvironment = null;
    this._backdrop?.dispose();
    this._shadows?.dispose();
    this.light.dispose();
    this._disposed = true;
    this._enabled = false;
    this.onChangedObservable.notifyObservers(this);
    this.onChangedObservable.clear();
  }

  /** The backdrop's and the ground's shadows keep the sky's share of the light. */
  private _setShadowLevel(): void {
    const level = this._skyShare();
    this._backdrop?.setShadowLevel(level);
    this._neighbours.ground?.setShadowLevel(level);
  }

  /**
   * The share of an upward surface's light that stays in the sun's shadow: sky / (sky + sun),
   * in luminance, from the environment's harmonics when it has them (else half).
   */
  private _skyShare(): number {
    const environment = this._neighbours.lighting?.texture.sphericalPolynomial;
    if (!environment) return 0.5;
    const sky =
      upwardIrradiance(this._restoreEnvironment ? environment : withoutSun(environment, this._polynomial)).toLuminance() * Math.PI;
    const sun = this.sun.illuminance * this.options.intensity * Math.max(0, Math.sin(this.sun.elevation));
    return sky + sun > 0 ? Math.max(0, sky) / (sky + sun) : 1;
  }
}
