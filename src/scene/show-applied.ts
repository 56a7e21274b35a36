/**
 * The last step of `applySkybox` and `loadSkybox`: parts built hidden become the applied
 * skybox, shown in one step, with no await in between (an abort cannot land between them).
 */
import type { Observable } from "@babylonjs/core/Misc/observable.js";
import type { Scene } from "@babylonjs/core/scene.js";
import type { Generation } from "../api/schemas/generation.ts";
import { AppliedSkybox, type SkyboxParts } from "./applied-skybox.ts";
import { backgroundBakes } from "./background/background-bakes.ts";
import type { BuiltEnvironment } from "./build-parts.ts";
import type { ApplyProgress, ProgressSink } from "./progress.ts";
import type { SkyboxCache } from "./cache/skybox-cache.ts";

/** Parts built hidden, and the environment whose prefiltered texels go to the cache once shown. */
export interface BuiltParts {
  parts: SkyboxParts;
  bake: BuiltEnvironment | null;
}

/** Where the built parts are shown, and what the apply hands the handle. */
export interface ShowOptions {
  scene: Scene;
  record: Generation;
  /** Initial rotation (radians). */
  rotation: number;
  /** Where the environment is baked once shown (null: nowhere). */
  cache: SkyboxCache | null;
  /** The skybox this one replaces: disposed in the same step. */
  replace: AppliedSkybox | null | undefined;
  /** The apply's progress, which the handle keeps. */
  observable: Observable<ApplyProgress>;
  progress: ProgressSink;
  /** Cache writes already under way (downloads), joined into `whenCached`. */
  writes?: readonly Promise<unknown>[];
}

/**
 * Shows the built parts as one applied skybox, disposes the replaced one, and reports "ready".
 * @param built the parts, and the environment to bake into `options.cache`
 * @param options where and how they are shown
 */
export function showApplied(built: BuiltParts, options: ShowOptions): AppliedSkybox {
  const { scene, record, rotation, cache, replace, observable, progress, writes = [] } = options;
  let caching!: (writes: Promise<unknown>) => void;
  const applied = new AppliedSkybox({
    scene,
    record,
    parts: built.parts,
    progress: observable,
    rotation,
    whenCached: new Promise<unknown>((r) => (caching = r)),
  });
  applied.setRotation(rotation);
  applied._show();
  const all = [...writes];
  // Joined before the replaced skybox goes: a re-apply of the same environment keeps its bake.
  if (built.bake?.bakeKey && cache) all.push(backgroundBakes.bake(scene, built.bake.bakeKey, built.bake.lighting.texture, applied, cache));
  if (replace && replace !== applied) replace.dispose();
  progress({ stage: "ready" });
  caching(Promise.all(all));
  return applied;
}
