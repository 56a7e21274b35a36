/**
 * A byte store in IndexedDB for baked environments (baked-texels.ts) and downloaded assets, bounded by
 * size: when a write goes over `maxBytes`, the least recently used entries go first. It
 * survives page reloads. Where IndexedDB is missing (Node, some private modes) it stores
 * nothing and every read misses, so callers need no second code path.
 */

/** Options of `SkyboxCache`. */
export interface SkyboxCacheOptions {
  /** Most bytes kept. @default 200 MiB */
  maxBytes?: number;
  /** IndexedDB database name; caches with different names do not share entries. @default "babylon-skybox-cache" */
  databaseName?: string;
  /** The IndexedDB factory. @default globalThis.indexedDB */
  indexedDB?: IDBFactory | null;
}

/** What eviction needs of an entry; kept apart from the bytes so it reads no bytes. */
interface Meta {
  key: string;
  size: number;
  usedAt: number;
}

const META = "meta";
const BYTES = "bytes";

/** Persistent LRU cache of skybox assets (IndexedDB). */
export class SkyboxCache {
  /** Most bytes kept. */
  readonly maxBytes: number;
  /** IndexedDB database name. */
  readonly databaseName: string;
  private readonly _factory: IDBFactory | null;
  private _db: Promise<IDBDatabase | null> | null = null;
  /** Last `usedAt` handed out: keeps the order strict when two accesses share a millisecond. */
  private _clock = 0;

  /**
   * Opens the IndexedDB cache (nothing is stored when IndexedDB is missing).
   * @param options size bound, database name, IndexedDB factory
   */
  constructor(options: SkyboxCacheOptions = {}) {
    this.maxBytes = options.maxBytes ?? 200 * 1024 * 1024;
    this.databaseName = options.databaseName ?? "babylon-skybox-cache";
    this._factory = options.indexedDB === undefined ? (globalThis.indexedDB ?? null) : options.indexedDB;
    // Opened now, so that the first read (the first re-apply after a reload) does not wait for it.
    void this._open();
  }

  /** True when entries are actually stored (IndexedDB is available and opened). */
  async isPersistent(): Promise<boolean> {
    return (await this._open()) !== null;
  }

  /**
   * The bytes stored under `key` (marking them recently used), or null.
   * @param key entry key
   * @returns the bytes or null on a miss
   */
  async get(key: string): Promise<Uint8Array | null> {
    const db = await this._open();
    if (!db) return null;
    const bytes = await request<ArrayBuffer | undefined>(db.transaction(BYTES, "readonly").objectStore(BYTES).get(key));
    if (!bytes) return null;
    // Touch in a separate transaction: the read stays fast, the order is kept for eviction.
    void this._touch(db, key).catch(() => undefined);
    return new Uint8Array(bytes);
  }

  /**
   * Stores `bytes` under `key`, then evicts least recently used entries over `maxBytes`.
   * An entry larger than `maxBytes` is not stored.
   * @param key entry key
   * @param bytes the bytes (copied)
   */
  async put(key: string, bytes: Uint8Array): Promise<void> {
    const db = await this._open();
    if (!db || bytes.byteLength > this.maxBytes) return;
    const tx = db.transaction([META, BYTES], "readwrite");
    // put() clones at once: only a view of part of a buffer needs a copy of its own first.
    const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
    tx.objectStore(BYTES).put(whole ? bytes.buffer : bytes.slice().buffer, key);
    tx.objectStore(META).put({ key, size: bytes.byteLength, usedAt: this._now() } satisfies Meta);
    await done(tx);
    await this._evict(db);
  }

  /**
   * Removes one entry.
   * @param key entry key
   */
  async delete(key: string): Promise<void> {
    const db = await this._open();
    if (!db) return;
    const tx = db.transaction([META, BYTES], "readwrite");
    tx.objectStore(META).delete(key);
    tx.objectStore(BYTES).delete(key);
    await done(tx);
  }

  /** Removes every entry. */
  async clear(): Promise<void> {
    const db = await this._open();
    if (!db) return;
    const tx = db.transaction([META, BYTES], "readwrite");
    tx.objectStore(META).clear();
    tx.objectStore(BYTES).clear();
    await done(tx);
  }

  /** Bytes stored now. */
  async size(): Promise<number> {
    return (await this._rows()).reduce((sum, r) => sum + r.size, 0);
  }

  /** Keys stored now, least recently used first. */
  async keys(): Promise<string[]> {
    return (await this._rows()).map((r) => r.key);
  }

  /** Closes the database connection (it reopens on the next call). */
  close(): void {
    void this._db?.then((db) => db?.close());
    this._db = null;
  }

  private _now(): number {
    this._clock = Math.max(Date.now(), this._clock + 1);
    return this._clock;
  }

  private _open(): Promise<IDBDatabase | null> {
    if (!this._factory) return Promise.resolve(null);
    this._db ??= new Promise<IDBDatabase | null>((resolve) => {
      const open = this._factory!.open(this.databaseName, 1);
      open.onupgradeneeded = () => {
        open.result.createObjectStore(META, { keyPath: "key" }).createIndex("usedAt", "usedAt");
        open.result.createObjectStore(BYTES);
      };
      open.onsuccess = () => resolve(open.result);
      // A cache that cannot open (blocked, quota, private mode) behaves as an empty one.
      open.onerror = () => resolve(null);
      open.onblocked = () => resolve(null);
    });
    return this._db;
  }

  private async _touch(db: IDBDatabase, key: string): Promise<void> {
    const tx = db.transaction(META, "readwrite");
    const store = tx.objectStore(META);
    const meta = await request<Meta | undefined>(store.get(key));
    if (meta) store.put({ ...meta, usedAt: this._now() });
    await done(tx);
  }

  /** Metadata of every entry, least recently used first. */
  private async _rows(): Promise<Meta[]> {
    const db = await this._open();
    if (!db) return [];
    return request<Meta[]>(db.transaction(META, "readonly").objectStore(META).index("usedAt").getAll());
  }

  private async _evict(db: IDBDatabase): Promise<void> {
    const rows = await this._rows();
    let total = rows.reduce((sum, r) => sum + r.size, 0);
    if (total <= this.maxBytes) return;
    const tx = db.transaction([META, BYTES], "readwrite");
    for (const r of rows) {
      if (total <= this.maxBytes) break;
      tx.objectStore(META).delete(r.key);
      tx.objectStore(BYTES).delete(r.key);
      total -= r.size;
    }
    await done(tx);
  }
}

/**
 * A cache with the default bound (200 MiB) and database; instances with the same database
 * share their entries.
 * @param options see `SkyboxCacheOptions`
 * @returns a new SkyboxCache
 */
export function createSkyboxCache(options: SkyboxCacheOptions = {}): SkyboxCache {
  return new SkyboxCache(options);
}

// Keyed weakly by the owner (the engine), whose objects have no slot of ours: the default
// cache lives and goes with its engine, and nothing of it outlives the engine.
const defaults = new WeakMap<object, SkyboxCache>();

/**
 * The cache an apply given none uses: one per owner (applySkybox's is the engine), with the
 * default bound and database, so its database is opened once, not at every apply.
 * @param owner what the cache lives as long as
 */
export function defaultSkyboxCache(owner: object): SkyboxCache {
  let cache = defaults.get(owner);
  if (!cache) defaults.set(owner, (cache = new SkyboxCache()));
  return cache;
}

function request<T>(req: IDBRequest): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result as T);
    req.onerror = () => reject(req.error ?? new Error("IndexedDB request failed"));
  });
}

function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error("IndexedDB transaction failed"));
    tx.onabort = () => reject(tx.error ?? new Error("IndexedDB transaction aborted"));
  });
}
