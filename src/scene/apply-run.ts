/**
 * What `applySkybox` and `loadSkybox` do around building a skybox: each stage goes to the
 * caller's `onProgress` and to the handle's progress observable; the caller's signal is
 * mirrored into a controller of the run's own, so one failing part can stop the others; on
 * failure the observable is cleared and, when the caller aborted, the caller's reason is
 * what rejects.
 */
import { Observable } from "@babylonjs/core/Misc/observable.js";
import type { AppliedSkybox } from "./applied-skybox.ts";
import type { ApplyProgress, ProgressSink } from "./progress.ts";

/** The caller's side of a run. */
export interface RunOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ApplyProgress) => void;
}

/** What a run's body gets. */
export interface RunTools {
  progress: ProgressSink;
  /** Aborted by the caller's signal, or by the body when a part fails. */
  abort: AbortController;
  /** The handle's `onProgressObservable`, given to `showApplied`. */
  progressObservable: Observable<ApplyProgress>;
}

/**
 * @param options the caller's signal and progress callback
 * @param body builds and shows the skybox
 * @returns what the body returns
 */
export async function runApply(options: RunOptions, body: (tools: RunTools) => Promise<AppliedSkybox>): Promise<AppliedSkybox> {
  const progressObservable = new Observable<ApplyProgress>(undefined, true);
  const progress: ProgressSink = (p) => {
    options.onProgress?.(p);
    progressObservable.notifyObservers(p);
  };
  const abort = new AbortController();
  const onAbort = () => abort.abort(options.signal!.reason);
  options.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    options.signal?.throwIfAborted();
    return await body({ progress, abort, progressObservable });
  } catch (error) {
    progressObservable.clear();
    throw options.signal?.aborted ? options.signal.reason : error;
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
  }
}
