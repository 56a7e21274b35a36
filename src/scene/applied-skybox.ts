/**
 * The handle `applySkybox` resolves with: what it put in the scene, live changes, and
 * `dispose()`, which removes every texture, mesh, material and observer it created.
 */
import { Observable, type Observer } from "@babylonjs/core/Misc/observable.js";
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import type { Material } from "@babylonjs/core/Materials/material.js";
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh.js";
import type { Scene } from "@babylonjs/core/scene.js";
import type { Nullable } from "@babylonjs/core/types.js";
import type { Generation } from "../api/schemas/generation.ts";
import type { SkyboxBackdrop } from "./backdrop/backdrop.ts";
import type { SkyboxLighting } from "./environment/lighting.ts";
import type { ApplyProgress } from "./progress.ts";
import type { SkyboxPart } from "./skybox-part.ts";
import type { ReplacedLights } from "./sun-light/replaced-lights.ts";
import type { SkyboxSun } from "./sun-light/skybox-sun.ts";

/** The parts an apply built (null: off). */
export interface SkyboxParts {
  lighting: Nullable<SkyboxLighting>;
  background: Nullable<SkyboxPart & { readonly meshes: readonly AbstractMesh[] }>;
  backdrop: Nullable<SkyboxBackdrop>;
  /** The sun light (absent: not asked for, or no sun in the sky). */
  sun?: Nullable<SkyboxSun>;
  /** The scene's lights the sun replaces (`sun.replaces`), off while the sun is shown, found or not. */
  replaced?: Nullable<ReplacedLights>;
}

/** Which parts show. */
export interface SkyboxVisibility {
  lighting?: boolean;
  background?: boolean;
  backdrop?: boolean;
  sun?: boolean;
}

/** What an `AppliedSkybox` is made of (by `applySkybox` and `loadSkybox`). */
export interface AppliedSkyboxOptions {
  scene: Scene;
  /** The generation record. */
  record: Generation;
  /** The parts, built and disabled. */
  parts: SkyboxParts;
  /** The apply's progress observable. */
  progress: Observable<ApplyProgress>;
  /** Initial rotation (radians). */
  rotation: number;
  /** Cache writes under way. */
  whenCached: Promise<unknown>;
}

/** The handle of a skybox in the scene, from `applySkybox` or `loadSkybox`: turn, dim, hide and dispose its parts. */
export class AppliedSkybox {
  /** Progress of the apply (it is over once the handle exists; a late observer gets the last one, "ready"). */
  readonly onProgressObservable: Observable<ApplyProgress>;
  /** Notified once, when the skybox is disposed. */
  readonly onDisposeObservable = new Observable<AppliedSkybox>();
  /** Notified with the sun when its light changes (turned, shown or hidden, intensity), and with null once it is gone. */
  readonly onSunChangedObservable = new Observable<Nullable<SkyboxSun>>();
  /**
   * Resolves once the downloads and the baked environment are stored in the cache (at once
   * without a cache). Never rejects: a cache that fails only costs the next apply time.
   */
  readonly whenCached: Promise<void>;
  private readonly _visible: Required<SkyboxVisibility> = { lighting: true, background: true, backdrop: true, sun: true };
  private _rotation: number;
  private _disposed = false;
  private _sceneDisposeObserver: Nullable<Observer<Scene>>;

  readonly scene: Scene;
  readonly record: Generation;
  private readonly _parts: SkyboxParts;

  /**
   * Built by `applySkybox`; not meant to be constructed directly.
   * @param options the scene, the record, the parts built and disabled, the apply's progress
   */
  constructor(options: AppliedSkyboxOptions) {
    const { scene, parts } = options;
    this.scene = scene;
    this.record = options.record;
    this._parts = parts;
    this.onProgressObservable = options.progress;
    this._rotation = options.rotation;
    this.whenCached = options.whenCached.then(
      () => undefined,
      () => undefined,
    );
    this._sceneDisposeObserver = scene.onDisposeObservable.addOnce(() => this.dispose());
    parts.sun?.onChangedObservable.add((sun) => this.onSunChangedObservable.notifyObservers(sun.isDisposed ? null : sun));
  }

  /** The environment texture (also when only the blurred background uses it). */
  get environment(): Nullable<BaseTexture> {
    return this._parts.lighting?.texture ?? null;
  }
  /** The background mesh (dome sphere or box). */
  get backgroundMesh(): Nullable<AbstractMesh> {
    return this._parts.background?.meshes[0] ?? null;
  }
  /** The sun light, its shadow generator and the sun found in the HDRI; null when not asked for or when the sky has none. */
  get sun(): Nullable<SkyboxSun> {
    return this._disposed ? null : (this._parts.sun ?? null);
  }
  /** The root of the backdrop. */
  get backdrop(): Nullable<AbstractMesh> {
    return this._parts.backdrop?.root ?? null;
  }
  /** Every texture the skybox created. */
  get textures(): readonly BaseTexture[] {
    return this._all().flatMap((p) => p.textures);
  }
  /** Every mesh the skybox created. */
  get meshes(): readonly AbstractMesh[] {
    return this._all().flatMap((p) => p.meshes);
  }
  /** Every material the skybox created. */
  get materials(): readonly Material[] {
    return this._all().flatMap((p) => p.materials);
  }
  /** Current rotation around Y (radians). */
  get rotation(): number {
    return this._rotation;
  }
  /** True once disposed. */
  get isDisposed(): boolean {
    return this._disposed;
  }
  /** True when the environment came from a cache (memory, or the baked texels in IndexedDB). */
  get fromCache(): boolean {
    return this._parts.lighting?.fromCache ?? false;
  }

  /**
   * Turns lighting, background and backdrop together around Y.
   * @param radians the rotation
   */
  setRotation(radians: number): void {
    this._rotation = radians;
    for (const p of this._all()) p.setRotation(radians);
  }

  /**
   * Sets `scene.environmentIntensity` (kept while this skybox lights the scene).
   * @param intensity the intensity
   */
  setIntensity(intensity: number): void {
    if (this._parts.lighting) this._parts.lighting.intensity = intensity;
    this._parts.sun?.refresh();
  }

  /**
   * Shows or hides parts; parts not named keep their state.
   * @param parts the parts to change
   */
  setVisible(parts: SkyboxVisibility): void {
    Object.assign(this._visible, Object.fromEntries(Object.entries(parts).filter(([, v]) => v !== undefined)));
    if (!this._disposed) this._enableParts();
  }

  /** @internal Shows the parts (called once, when the apply is ready). */
  _show(): void {
    this._enableParts();
  }

  /** Removes the skybox from the scene and releases everything it created. */
  dispose(): void {
    if (this._disposed) return;
    this._disposed = true;
    this.scene.onDisposeObservable.remove(this._sceneDisposeObserver);
    this._sceneDisposeObserver = null;
    // The sun first (it gives the backdrop and the environment back what it changed), then
    // background and backdrop: the blurred background shares the environment's GPU texture.
    // The replaced lights last: the scene is not lit by its own light and this sun at once.
    for (const p of [this._parts.sun, this._parts.background, this._parts.backdrop, this._parts.lighting, this._parts.replaced])
      p?.dispose();
    this.onDisposeObservable.notifyObservers(this);
    this.onDisposeObservable.clear();
    this.onSunChangedObservable.clear();
    this.onProgressObservable.clear();
  }

  private _enableParts(): void {
    this._parts.lighting?.setEnabled(this._visible.lighting);
    this._parts.background?.setEnabled(this._visible.background);
    this._parts.backdrop?.setEnabled(this._visible.backdrop);
    // The sun on before the lights it replaces go off, and off after they come back.
    if (this._visible.sun) {
      this._parts.sun?.setEnabled(true);
      this._parts.replaced?.setEnabled(true);
    } else {
      this._parts.replaced?.setEnabled(false);
      this._parts.sun?.setEnabled(false);
    }
  }

  private _all(): SkyboxPart[] {
    if (this._disposed) return [];
    return [
      this._parts.lighting,
      this._parts.background,
      this._parts.backdrop,
      this._parts.sun ?? null,
      this._parts.replaced ?? null,
    ].filter((p): p is NonNullable<typeof p> => p !== null);
  }
}
