import { Observable } from "@babylonjs/core/Misc/observable.js";

/**
 * A piece of pane state held outside React: an immutable snapshot replaced on every
 * change, and an Observable that announces the new snapshot. Components subscribe to it
 * (see `useSlice`), so a pane that is unmounted, remounted or undocked reads the same state.
 */
export class Slice<T extends object> {
  /** Fires with the new snapshot after every change. */
  public readonly onChangedObservable = new Observable<T>();
  private _value: T;

  /**
   * @param initial the first snapshot
   */
  public constructor(initial: T) {
    this._value = initial;
  }

  /** The current snapshot (never mutated: a change replaces it). */
  public get value(): T {
    return this._value;
  }

  /**
   * Replaces the snapshot with `patch` merged in and notifies observers.
   * @param patch the fields that change
   */
  protected _set(patch: Partial<T>): void {
    this._value = { ...this._value, ...patch };
    this.onChangedObservable.notifyObservers(this._value);
  }

  /** Removes every observer. */
  public dispose(): void {
    this.onChangedObservable.clear();
  }
}
