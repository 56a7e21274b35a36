import { PointerEventTypes, type PointerInfo } from "@babylonjs/core/Events/pointerEvents.js";
import { Matrix } from "@babylonjs/core/Maths/math.vector.js";
import type { Observer } from "@babylonjs/core/Misc/observable.js";
import type { Nullable } from "@babylonjs/core/types.js";
import type { Scene } from "@babylonjs/core/scene.js";
import "@babylonjs/core/Culling/ray.js";
import { EditMarker } from "./edit-marker.ts";
import type { GenerateForm, GenerateFormValue } from "../form/generate-form.ts";
import { anglesOfDirection, directionOfAngles } from "./sky-direction.ts";

/**
 * Edit mode in the viewport: a click (a tap, not a camera drag) on the sky picks the centre
 * of the edit, and a marker shows the region the field of view covers. The marker exists
 * only while the form is in Edit mode with a centre, and is disposed when leaving it.
 */
export class EditPicker {
  private _scene: Scene | null = null;
  private _pointer: Nullable<Observer<PointerInfo>> = null;
  private _marker: EditMarker | null = null;
  private readonly _formObserver;

  /**
   * @param _form the Generate form (mode, centre and field of view)
   * @param _rotation the applied skybox's rotation around Y, radians
   */
  public constructor(
    private readonly _form: GenerateForm,
    private readonly _rotation: () => number,
  ) {
    this._formObserver = _form.onChangedObservable.add((v) => this._sync(v));
  }

  /** The scene clicks are read from (the Inspector's current scene). */
  public setScene(scene: Scene | null): void {
    if (scene === this._scene) return;
    this._detach();
    this._scene = scene;
    if (scene) this._pointer = scene.onPointerObservable.add(() => this._onTap(), PointerEventTypes.POINTERTAP);
    this._sync(this._form.value);
  }

  /** The marker, while shown (tests look at it). */
  public get marker(): EditMarker | null {
    return this._marker;
  }

  /** Places the marker again (after the skybox was rotated). */
  public refresh(): void {
    this._sync(this._form.value);
  }

  /**
   * Picks the centre along the ray through a point of the canvas.
   * @param x canvas x, CSS pixels
   * @param y canvas y, CSS pixels
   */
  public pickAt(x: number, y: number): void {
    const scene = this._scene;
    const camera = scene?.activeCamera;
    if (!scene || !camera) return;
    const ray = scene.createPickingRay(x, y, Matrix.Identity(), camera);
    this._form.set({ editCenter: anglesOfDirection(ray.direction, this._rotation()) });
  }

  /** A tap (not a drag of the camera) in Edit mode picks the centre. */
  private _onTap(): void {
    if (this._form.value.mode !== "edit" || !this._scene) return;
    this.pickAt(this._scene.pointerX, this._scene.pointerY);
  }

  private _sync(v: GenerateFormValue): void {
    const show = this._scene && v.mode === "edit" && v.editCenter;
    if (!show) {
      this._marker?.dispose();
      this._marker = null;
      return;
    }
    this._marker ??= new EditMarker(this._scene!);
    this._marker.place(directionOfAngles(v.editCenter!, this._rotation()), v.editFov);
  }

  private _detach(): void {
    this._pointer?.remove();
    this._pointer = null;
    this._marker?.dispose();
    this._marker = null;
  }

  /** Removes the pointer observer and the marker. */
  public dispose(): void {
    this._detach();
    this._formObserver.remove();
  }
}
