import { Observable } from "@babylonjs/core/Misc/observable.js";

/**
 * A piece of pane state held outside React: an immutable snapshot replaced on every
 * change, and an Observable that announces the new snapshot. It is an external store for
 * React's `useSyncExternalStore` (see `useSlice`): the snapshot is the same object until the
 * next change, so React neither re-renders in a loop nor shows two states in one render, and
 * a pane that is unmounted, remounted or undocked reads the same state.
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
   * Calls `onChange` after every change, in the shape `useSyncExternalStore` expects (bound,
   * so React keeps one subscription while the slice stays the same).
   * @param onChange called with no argument after each change
   * @returns the function that removes the subscription
   */
  public readonly subscribe = (onChange: () => void): (() => void) => {
    const observer = this.onChangedObservable.add(() => onChange());
    return () => this.onChangedObservable.remove(observer);
  };

  /**
   * The current snapshot, bound for `useSyncExternalStore`.
   * @returns the same object until the next change
   */
  public readonly getSnapshot = (): T => this._value;

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
