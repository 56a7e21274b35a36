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

/**
 * Shows the built parts as one applied skybox, disposes the replaced one, and reports "ready".
 * @param built the parts, and the environment to bake into `cache`
 * @param replace the skybox this one replaces: disposed in the same step
 * @param writes cache writes already under way (downloads), joined into `whenCached`
 */
export function showApplied(
  scene: Scene,
  record: Generation,
  built: BuiltParts,
  rotation: number,
  cache: SkyboxCache | null,
  replace: AppliedSkybox | null | undefined,
  observable: Observable<ApplyProgress>,
  progress: ProgressSink,
  writes: readonly Promise<unknown>[] = [],
): AppliedSkybox {
  let caching!: (writes: Promise<unknown>) => void;
  const applied = new AppliedSkybox(scene, record, built.parts, observable, rotation, new Promise<unknown>((r) => (caching = r)));
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
