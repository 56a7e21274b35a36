/**
 * The background bakes of environments for the cache (texel-bake.ts) under way, at most one
 * per environment (a cache key) and scene. A bake runs for the skyboxes that show its
 * environment, its users:
 * - an apply of the same environment while it runs lights with a view of the bake's GPU
 *   texture and joins it, instead of downloading, prefiltering and baking again;
 * - once every user is disposed (replaced by another skybox) the bake is skipped, or
 *   stopped at the next face it reads back, its GPU texture let go, and nothing stored.
 * Once stored, the engine's environment cache learns it, so re-applies it keeps do not bake again.
 */
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import type { Scene } from "@babylonjs/core/scene.js";
import { environmentCacheOf } from "../cache/environment-cache.ts";
import { EnvironmentView } from "../environment/environment-view.ts";
import type { SkyboxCache } from "../cache/skybox-cache.ts";

/** What a bake runs for: an applied skybox. */
export interface BakeUser {
  readonly isDisposed: boolean;
  readonly onDisposeObservable: { addOnce(callback: () => void): unknown };
}

/** Bakes a prefiltered texture to the bytes the cache stores; rejects once `signal` aborts. */
export type BakeFunction = (texture: BaseTexture, signal: AbortSignal) => Promise<Uint8Array>;

/** The bake's code, loaded when the first bake starts: after the skybox shows, never on the way to it. */
const bakeLater: BakeFunction = async (texture, signal) => (await import("../baking/texel-bake.ts")).bakeTexels(texture, signal);

/** Told once a bake of `key` is stored in `cache`. */
export type OnStored = (texture: BaseTexture, key: string, cache: SkyboxCache) => void;

/** The engine's environment cache notes which database holds the entry. */
const markStored: OnStored = (texture, key, cache) => {
  const engine = texture.getInternalTexture()?.getEngine();
  if (engine) environmentCacheOf(engine)?.markStored(key, cache.databaseName);
};

interface Bake {
  /** The bake's own view of the GPU texture: it outlives any user's texture object. */
  view: EnvironmentView;
  users: number;
  stop: AbortController;
  done: Promise<void>;
}

export class BackgroundBakes {
  private readonly _byScene = new WeakMap<Scene, Map<string, Bake>>();

  /**
   * @param _bake the baking step (tests give their own)
   * @param _onStored told of each bake stored
   */
  constructor(
    private readonly _bake: BakeFunction = bakeLater,
    private readonly _onStored: OnStored = markStored,
  ) {}

  /**
   * The environment a bake of `key` reads now, for a re-apply to share; null when none runs.
   * @param scene the scene of the apply
   * @param key the environment's cache key
   * @param cache the cache the bake stores into
   */
  running(scene: Scene, key: string, cache: SkyboxCache): BaseTexture | null {
    const bake = this._byScene.get(scene)?.get(idOf(key, cache));
    return bake && !bake.stop.signal.aborted ? bake.view : null;
  }

  /**
   * Bakes `texture` for `user` and stores it under `key`, or joins the bake of `key` under way.
   * @returns resolves once stored, skipped or stopped; never rejects
   */
  bake(scene: Scene, key: string, texture: BaseTexture, user: BakeUser, cache: SkyboxCache): Promise<void> {
    if (user.isDisposed) return Promise.resolve();
    const bakes = this._bakesOf(scene);
    const id = idOf(key, cache);
    const current = bakes.get(id);
    if (current && !current.stop.signal.aborted) return this._join(current, user).done;
    if (!texture.getInternalTexture()) return Promise.resolve();
    const bake: Bake = { view: new EnvironmentView(scene, texture), users: 0, stop: new AbortController(), done: Promise.resolve() };
    bakes.set(id, this._join(bake, user));
    bake.done = this._run(bake, key, cache).finally(() => {
      if (bakes.get(id) === bake) bakes.delete(id);
      bake.view.dispose();
      // The bake may have held the last reference to an entry beyond the budget.
      environmentCacheOf(scene.getEngine())?.trim();
    });
    return bake.done;
  }

  private _join(bake: Bake, user: BakeUser): Bake {
    bake.users++;
    user.onDisposeObservable.addOnce(() => {
      if (--bake.users === 0) bake.stop.abort(new Error("Every skybox showing this environment was disposed"));
    });
    return bake;
  }

  private async _run(bake: Bake, key: string, cache: SkyboxCache): Promise<void> {
    try {
      bake.stop.signal.throwIfAborted();
      const bytes = await this._bake(bake.view, bake.stop.signal);
      if (bake.stop.signal.aborted) return;
      await cache.put(key, bytes);
      this._onStored(bake.view, key, cache);
    } catch {
      // Stopped, the texture went away, or the cache is full or closed: the next apply rebuilds.
    }
  }

  private _bakesOf(scene: Scene): Map<string, Bake> {
    let bakes = this._byScene.get(scene);
    if (!bakes) this._byScene.set(scene, (bakes = new Map<string, Bake>()));
    return bakes;
  }
}

/** Caches with other databases hold other entries: their bakes are others too. */
function idOf(key: string, cache: SkyboxCache): string {
  return `${cache.databaseName}\n${key}`;
}

/** The bakes of every apply. */
// One for the page: a bake outlives the apply that started it (a re-apply of the same
// environment shares it), so no apply can own it; its bakes are keyed weakly by scene, and a
// disposed scene's go with it.
export const backgroundBakes = new BackgroundBakes();
