/**
 * The memory tier of the cache: GPU textures of recently applied skyboxes (the prefiltered
 * environment cube, the panorama of the background dome), kept after their skybox is replaced
 * so applying it again takes them as they are: no read, no upload, no prefiltering. One per
 * engine (GPU memory is the engine's), bounded by an estimate of the GPU bytes it holds.
 *
 * Sharing goes through the GPU texture's own reference count: the cache holds one reference
 * per entry, and each texture object built on an entry holds another. An entry whose GPU
 * texture has references besides the cache's is in use: eviction passes it by until `trim()`
 * finds it unused (applySkybox trims once a skybox's textures are disposed). An evicted entry
 * drops its reference; the GPU texture goes once no texture object holds it either.
 */
import type { AbstractEngine } from "@babylonjs/core/Engines/abstractEngine.js";
import type { InternalTexture } from "@babylonjs/core/Materials/Textures/internalTexture.js";
import type { Observer } from "@babylonjs/core/Misc/observable.js";
import type { Nullable } from "@babylonjs/core/types.js";
import { textureBytes } from "./texture-bytes.ts";

/** Options of `EnvironmentCache`. */
export interface EnvironmentCacheOptions {
  /** Most GPU bytes kept (an estimate: size x faces x mips x bytes per texel); 0 keeps nothing. @default 256 MiB */
  maxBytes?: number;
}

/** Default bound: a hundred environments of 256 (4 MiB each as half floats with mips), or a few large panoramas. */
export const DEFAULT_ENVIRONMENT_CACHE_BYTES = 256 * 1024 * 1024;

interface Entry {
  texture: InternalTexture;
  bytes: number;
  /** Cache databases the entry is stored in already (no need to bake it again for them). */
  stored: Set<string>;
}

/** Each engine's memory cache of applied skyboxes' GPU textures, bounded by bytes, least recently used first. */
export class EnvironmentCache {
  /** Entries, least recently used first (a Map keeps insertion order: a use re-inserts). */
  private readonly _entries = new Map<string, Entry>();
  private _maxBytes: number;
  private _bytes = 0;
  private _engineObserver: Nullable<Observer<AbstractEngine>>;

  /**
   * Makes the cache of one engine (`getEnvironmentCache(engine)` returns the engine's own).
   * @param engine the engine whose GPU textures it holds; disposing the engine disposes it
   * @param options byte bound
   */
  constructor(
    readonly engine: AbstractEngine,
    options: EnvironmentCacheOptions = {},
  ) {
    this._maxBytes = Math.max(0, options.maxBytes ?? DEFAULT_ENVIRONMENT_CACHE_BYTES);
    this._engineObserver = engine.onDisposeObservable.addOnce(() => this.dispose());
  }

  /** Most GPU bytes kept; lowering it evicts at once. */
  get maxBytes(): number {
    return this._maxBytes;
  }

  /** Most GPU bytes kept; lowering it evicts at once what no skybox shows. */
  set maxBytes(value: number) {
    this._maxBytes = Math.max(0, value);
    this.trim();
  }

  /** Estimated GPU bytes of the entries. */
  get bytes(): number {
    return this._bytes;
  }

  /** Number of entries. */
  get size(): number {
    return this._entries.size;
  }

  /** Keys, least recently used first. */
  keys(): string[] {
    return [...this._entries.keys()];
  }

  /** True when `key` has an entry. */
  has(key: string): boolean {
    return this._entries.has(key);
  }

  /** True when a texture object besides the cache holds the entry's GPU texture. */
  isInUse(key: string): boolean {
    const entry = this._entries.get(key);
    return entry ? entry.texture._references > 1 : false;
  }

  /**
   * The GPU texture of `key`, marked most recently used; null on a miss. Build the texture
   * object that uses it at once (it takes its own reference, as every texture object does):
   * an entry nobody references may go at the next `add`.
   * @param key entry key
   */
  get(key: string): Nullable<InternalTexture> {
    return this._touch(key)?.texture ?? null;
  }

  /**
   * Keeps `texture` under `key` (taking a reference of its own), then evicts least recently
   * used entries not in use until the bytes fit. One larger than `maxBytes` is not kept; one
   * kept already is marked most recently used.
   * @param key entry key
   * @param texture a ready GPU texture
   * @param mips whether it has a full mip chain (prefiltered environments do)
   */
  add(key: string, texture: InternalTexture, mips: boolean): void {
    const bytes = textureBytes(texture, mips);
    if (this._isDisposed() || bytes > this._maxBytes) return;
    if (this._entries.get(key)?.texture === texture) {
      this._touch(key);
      return;
    }
    this.delete(key);
    texture.incrementReferences();
    this._entries.set(key, { texture, bytes, stored: new Set() });
    this._bytes += bytes;
    this.trim();
  }

  /**
   * Notes that `key` is stored in the cache database `database` (loaded from it, or baked into it).
   * @param key entry key
   * @param database SkyboxCache database name
   */
  markStored(key: string, database: string): void {
    this._entries.get(key)?.stored.add(database);
  }

  /** True when `key` is known to be stored in `database` already. */
  isStored(key: string, database: string): boolean {
    return this._entries.get(key)?.stored.has(database) ?? false;
  }

  /**
   * Drops one entry (its GPU texture stays while a texture object holds it).
   * @param key entry key
   */
  delete(key: string): void {
    const entry = this._entries.get(key);
    if (!entry) return;
    this._entries.delete(key);
    this._bytes -= entry.bytes;
    entry.texture.dispose();
  }

  /** Drops every entry. */
  clear(): void {
    for (const key of this.keys()) this.delete(key);
  }

  /** Evicts least recently used entries not in use until the bytes fit (entries in use stay, whatever they weigh). */
  trim(): void {
    for (const [key, entry] of this._entries) {
      if (this._bytes <= this._maxBytes) return;
      if (entry.texture._references <= 1) this.delete(key);
    }
  }

  /** Drops every entry and lets go of the engine. */
  dispose(): void {
    this.clear();
    this.engine.onDisposeObservable.remove(this._engineObserver);
    this._engineObserver = null;
    if (byEngine.get(this.engine) === this) byEngine.delete(this.engine);
  }

  private _isDisposed(): boolean {
    return this._engineObserver === null;
  }

  private _touch(key: string): Entry | null {
    const entry = this._entries.get(key);
    if (!entry) return null;
    this._entries.delete(key);
    this._entries.set(key, entry);
    return entry;
  }
}

// Keyed weakly by the engine, as `getEnvironmentCache(engine)` promises one cache an engine:
// the engine has no slot of ours, and the cache is disposed with it (and its entry let go).
const byEngine = new WeakMap<AbstractEngine, EnvironmentCache>();

/**
 * The engine's environment cache, made on first use (with `options`) and disposed with the engine.
 * @param engine the engine
 * @param options byte bound of a cache made now (change `maxBytes` later on the cache itself)
 * @returns the engine's cache
 * @example
 * getEnvironmentCache(scene.getEngine()).maxBytes = 64 * 1024 * 1024;
 */
export function getEnvironmentCache(engine: AbstractEngine, options?: EnvironmentCacheOptions): EnvironmentCache {
  let cache = byEngine.get(engine);
  if (!cache) byEngine.set(engine, (cache = new EnvironmentCache(engine, options)));
  return cache;
}

/**
 * The engine's environment cache if it has one (for those who only tell it things).
 * @param engine the engine
 */
export function environmentCacheOf(engine: AbstractEngine): EnvironmentCache | undefined {
  return byEngine.get(engine);
}
