import type { Light } from "@babylonjs/core/Lights/light.js";
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import type { Scene } from "@babylonjs/core/scene.js";
import { Observable } from "@babylonjs/core/Misc/observable.js";
import {
  DEFAULT_MESH_QUALITY,
  DEPTH_SCALE,
  recordModel,
  type Generation,
  type HdriModeKey,
  type MeshQualityKey,
  type ResolutionName,
} from "../../../api/index.ts";
import { applySkybox, type AppliedSkybox, type ApplyProgress } from "../../../scene/index.ts";
import { describeSceneError, type PaneError } from "../../error-text.ts";
import type { ConnectionState } from "../connection-state.ts";
import { Slice } from "../slice.ts";
import { backgroundSizeNote } from "./background-size.ts";

/** Resolution of the lighting export; `auto` lets `applySkybox` pick the smallest that holds its cube. */
export type LightingResolution = ResolutionName | "auto";

/** How a skybox is applied to the scene. */
export interface ApplySettings {
  /** Image-based lighting for PBR materials. */
  lighting: boolean;
  /** The panorama as the visible background. */
  background: boolean;
  /** The depth-displaced backdrop mesh. */
  backdrop: boolean;
  /** A directional light with shadows from the sun found in the HDRI, in place of the lights the pane was given (`sunReplaces`). */
  sun: boolean;
  /** The background's lower half projected onto the scene's ground (y = 0), which objects stand on; with blur 0 and no backdrop. */
  ground: boolean;
  /** Environment intensity. */
  intensity: number;
  /** Rotation around Y, degrees. */
  rotationDeg: number;
  /** HDRI mode of the lighting export. */
  hdriMode: HdriModeKey;
  /** Resolution of the lighting export. */
  resolution: LightingResolution;
  /** Background blur, 0..1 (0: the panorama at full resolution). */
  blur: number;
  /** Depth scale of the backdrop (3..10): how far near things come inwards. */
  depthScale: number;
  /** Mesh quality of the backdrop's GLB export (Model 3). */
  meshQuality: MeshQualityKey;
}

/** The backdrop's settings a skybox was built with. */
export type BuiltBackdrop = Pick<ApplySettings, "depthScale" | "meshQuality">;

export interface ApplyValue extends ApplySettings {
  /** The skybox in the scene, applied from this pane. */
  applied: Generation | null;
  /** The skybox being applied. */
  applying: Generation | null;
  progress: ApplyProgress | null;
  error: PaneError | null;
  /** Settings changed that only a new apply shows (HDRI mode or resolution, a part not built). */
  stale: boolean;
  /**
   * Why the applied skybox has no sun light, in words, when it was asked for one and its sky has
   * no sun; null when it has one or none was asked for.
   */
  noSun: string | null;
  /** What the pane says of a background the local service rendered below full size (background-size.ts); null otherwise. */
  backgroundNote: string | null;
}

export const DEFAULT_APPLY: ApplySettings = {
  lighting: true,
  background: true,
  backdrop: false,
  // A sun found in the sky lights the scene and casts its shadows, in place of the scene's own light.
  sun: true,
  ground: true,
  intensity: 1,
  rotationDeg: 0,
  hdriMode: "realism",
  resolution: "auto",
  blur: 0,
  depthScale: DEPTH_SCALE.default,
  meshQuality: DEFAULT_MESH_QUALITY,
};

/** What an `ApplyState` works with. */
export interface ApplyStateOptions {
  /** The client and tracker to apply through. */
  connection: ConnectionState;
  /** The scene to apply to, when there is one. */
  scene: () => Scene | null;
  /** Settings over `DEFAULT_APPLY`. @default {} */
  settings?: Partial<ApplySettings>;
  /** Lights the sun light replaces while it is on. @default [] */
  sunReplaces?: readonly Light[];
}

const DEG = Math.PI / 180;
/** What the pane says when the apply names no reason for a sky without a sun. */
const NO_SUN_FOUND = "none found in this sky";
const REBUILD: readonly (keyof ApplySettings)[] = ["hdriMode", "resolution", "blur", "depthScale", "meshQuality", "ground"];

/**
 * The skybox applied to the scene from the pane: applies with `applySkybox` (replacing the
 * previous one once the new one is ready), and changes intensity, rotation and visibility
 * live on the applied handle.
 */
export class ApplyState extends Slice<ApplyValue> {
  /** A skybox is in the scene (or none, after `remove`). */
  public readonly onAppliedObservable = new Observable<AppliedSkybox | null>();
  private _handle: AppliedSkybox | null = null;
  private _abort: AbortController | null = null;
  /** Whether the applied skybox was asked for its sun (it may have none: a night sky). */
  private _sunAsked = false;
  /** The backdrop settings the applied skybox was built with (a change shows on the next apply). */
  private _builtBackdrop: BuiltBackdrop | null = null;

  private readonly _connection: ConnectionState;
  private readonly _scene: () => Scene | null;
  private readonly _sunReplaces: readonly Light[];

  /**
   * @param options the connection to apply through, the scene, the first settings and the lights the sun replaces
   */
  public constructor(options: ApplyStateOptions) {
    super({
      ...DEFAULT_APPLY,
      ...options.settings,
      applied: null,
      applying: null,
      progress: null,
      error: null,
      stale: false,
      noSun: null,
      backgroundNote: null,
    });
    this._connection = options.connection;
    this._scene = options.scene;
    this._sunReplaces = options.sunReplaces ?? [];
  }

  /** The applied skybox's handle. */
  public get handle(): AppliedSkybox | null {
    return this._handle;
  }

  /** The backdrop settings of the applied skybox, or null when it was built without one. */
  public get builtBackdrop(): BuiltBackdrop | null {
    return this._builtBackdrop;
  }

  /** Current rotation in radians (for picking directions on the sky). */
  public get rotation(): number {
    return this.value.rotationDeg * DEG;
  }

  /**
   * Applies a skybox with the current settings; the previous one stays until it is ready.
   * @param record the generation to apply (complete, or followed until it is)
   */
  public async apply(record: Generation): Promise<AppliedSkybox | null> {
    const scene = this._scene();
    if (!scene) return null;
    this._abort?.abort();
    const abort = (this._abort = new AbortController());
    const v = this.value;
    this._set({ applying: record, progress: { stage: "waiting" }, error: null });
    // Why the sky has no sun, as the apply's progress says it.
    let noSun: string | null = null;
    try {
      const handle = await applySkybox(scene, record, {
        client: this._connection.client,
        tracker: await this._connection.tracker(),
        lighting: v.lighting && {
          hdriMode: v.hdriMode,
          intensity: v.intensity,
          ...(v.resolution === "auto" ? {} : { resolution: v.resolution }),
        },
        background: v.background && { blur: v.blur, ground: v.ground && v.blur === 0 && !v.backdrop },
        backdrop: v.backdrop && { depthScale: v.depthScale, meshQuality: v.meshQuality },
        sun: v.sun && { replaces: [...this._sunReplaces] },
        rotation: v.rotationDeg * DEG,
        replace: this._handle,
        signal: abort.signal,
        onProgress: (progress: ApplyProgress) => {
          noSun = progress.noSun ?? noSun;
          this._set({ progress });
        },
      });
      if (abort.signal.aborted) return null;
      this._handle = handle;
      this._sunAsked = v.sun;
      this._builtBackdrop = handle.backdrop ? { depthScale: v.depthScale, meshQuality: v.meshQuality } : null;
      handle.onDisposeObservable.addOnce(() => this._forget(handle));
      this._set({
        applied: handle.record,
        applying: null,
        progress: null,
        stale: false,
        noSun: v.sun && handle.sun === null ? (noSun ?? NO_SUN_FOUND) : null,
        backgroundNote: this._backgroundNote(handle),
      });
      this.onAppliedObservable.notifyObservers(handle);
      return handle;
    } catch (error) {
      if (!abort.signal.aborted) this._set({ applying: null, progress: null, error: describeSceneError(error) });
      return null;
    }
  }

  /** Applies the current skybox again (after a change that needs it). */
  public reapply(): Promise<AppliedSkybox | null> {
    return this.value.applied ? this.apply(this.value.applied) : Promise.resolve(null);
  }

  /** Stops an apply under way; the previous skybox stays. */
  public cancel(): void {
    this._abort?.abort();
    this._set({ applying: null, progress: null });
  }

  /**
   * A skybox was deleted: an apply of it under way stops before it reads files that are gone,
   * and says why. One already in the scene stays there (its files were read).
   * @param id the deleted generation's id
   */
  public deleted(id: number): void {
    if (this.value.applying?.id !== id) return;
    this._abort?.abort();
    const message = "The skybox was deleted while it was being applied; the scene keeps what it showed before.";
    this._set({
      applying: null,
      progress: null,
      error: { title: "Apply stopped", message, serverMessage: null, kind: "aborted", status: 0 },
    });
  }

  /** Changes settings; intensity, rotation and visibility apply at once to the applied skybox. */
  public setSettings(patch: Partial<ApplySettings>): void {
    this._set(patch);
    const h = this._handle;
    if (!h) return;
    const v = this.value;
    if (patch.intensity !== undefined) h.setIntensity(v.intensity);
    if (patch.rotationDeg !== undefined) h.setRotation(v.rotationDeg * DEG);
    if (patch.lighting !== undefined || patch.background !== undefined || patch.backdrop !== undefined || patch.sun !== undefined)
      h.setVisible({ lighting: v.lighting, background: v.background, backdrop: v.backdrop, sun: v.sun });
    const missing =
      (v.lighting && !h.environment) || (v.background && !h.backgroundMesh) || (v.backdrop && !h.backdrop) || (v.sun && !this._sunAsked);
    if (missing || REBUILD.some((k) => k in patch)) this._set({ stale: true });
  }

  /** The note on a background the local service rendered below full size, as the scene's camera shows it. */
  private _backgroundNote(handle: AppliedSkybox): string | null {
    const camera = handle.scene.activeCamera;
    // The panorama itself (a dome or the grounded background); a blurred background shows the environment cube.
    const texture = (handle.backgroundMesh?.material as { diffuseTexture?: BaseTexture | null } | null)?.diffuseTexture;
    if (this._connection.value.upstream !== "local" || !camera || !texture) return null;
    const view = {
      width: texture.getSize().width,
      model: recordModel(handle.record),
      fov: camera.fov,
      renderHeight: handle.scene.getEngine().getRenderHeight(),
    };
    return view.width > 0 ? backgroundSizeNote(view) : null;
  }

  /** The handle was disposed elsewhere (by the scene, or by the app). */
  private _forget(handle: AppliedSkybox): void {
    if (this._handle !== handle) return;
    this._handle = null;
    this._set({ applied: null, stale: false, noSun: null, backgroundNote: null });
    this.onAppliedObservable.notifyObservers(null);
  }

  /** Removes the applied skybox from the scene. */
  public remove(): void {
    this._abort?.abort();
    this._handle?.dispose();
    this._handle = null;
    this._set({ applied: null, applying: null, progress: null, stale: false, noSun: null, backgroundNote: null });
    this.onAppliedObservable.notifyObservers(null);
  }

  /** Stops an apply under way; the applied skybox stays in the scene (it belongs to the scene now). */
  public override dispose(): void {
    this._abort?.abort();
    this.onAppliedObservable.clear();
    super.dispose();
  }
}
