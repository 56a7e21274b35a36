/**
 * What the parts of one apply share: the record and model, the export catalog (read once,
 * only if an export is needed), the panorama and depth-map downloads (each made once),
 * downloads through the cache, progress reports and unique names.
 */
import type { SceneClient } from "./scene-client.ts";
import type { Generation } from "../api/schemas/generation.ts";
import type { StatusTracker } from "../status/create-tracker.ts";
import type { Scene } from "@babylonjs/core/scene.js";
import { exportKey, generationFileKey } from "./cache/cache-keys.ts";
import { cachedBytes, type DownloadContext } from "./exports/download.ts";
import { loadExportCatalog, type ExportCatalog } from "./exports/export-catalog.ts";
import { exportTitle, type ExportChoice } from "./exports/part-exports.ts";
import { obtainExport } from "./exports/obtain-export.ts";
import type { ApplyPart, ProgressSink } from "./progress.ts";
import type { SkyboxCache } from "./cache/skybox-cache.ts";

/** What one apply starts from. */
export interface ApplyContextOptions {
  scene: Scene;
  /** The generation record, complete. */
  record: Generation;
  model: 3 | 4;
  client: SceneClient;
  /** Follows the exports requested. */
  tracker: StatusTracker;
  /** Where downloads are kept (null: nowhere). */
  cache: SkyboxCache | null;
  progress: ProgressSink;
  /** Stops requests and downloads. */
  signal?: AbortSignal;
}

export class ApplyContext {
  readonly scene: Scene;
  readonly record: Generation;
  readonly model: 3 | 4;
  readonly client: SceneClient;
  readonly tracker: StatusTracker;
  readonly progress: ProgressSink;
  readonly signal?: AbortSignal;
  readonly downloads: DownloadContext;
  private _catalog: Promise<ExportCatalog> | null = null;
  private readonly _files = new Map<string, Promise<Uint8Array>>();
  private readonly _exports = new Map<string, Promise<{ bytes: Uint8Array; cached: boolean }>>();

  constructor(options: ApplyContextOptions) {
    const { cache, progress, signal } = options;
    this.scene = options.scene;
    this.record = options.record;
    this.model = options.model;
    this.client = options.client;
    this.tracker = options.tracker;
    this.progress = progress;
    if (signal) this.signal = signal;
    this.downloads = {
      cache,
      writes: [],
      onFraction: (label, fraction) => progress({ stage: "downloading", detail: label, fraction }),
      ...(signal ? { signal } : {}),
    };
  }

  get cache(): SkyboxCache | null {
    return this.downloads.cache;
  }

  /** The skybox's obfuscated id: what cache keys and export requests name. */
  get skyboxId(): string {
    return this.record.obfuscated_id;
  }

  /** A name no other texture or mesh of the engine has (the texture cache is keyed by name). */
  name(part: string): string {
    return `skybox-${this.skyboxId}-${part}-${this.scene.getUniqueId()}`;
  }

  /**
   * The bytes of an export: from the cache, else requested, waited for and downloaded; once
   * per apply (lighting and sun may share one).
   * @param choice the export
   * @param part the part it is for, which the progress reports name
   */
  exportBytes(choice: ExportChoice, part: ApplyPart): Promise<{ bytes: Uint8Array; cached: boolean }> {
    const key = exportKey(this.skyboxId, choice);
    let pending = this._exports.get(key);
    if (!pending) {
      const label = exportTitle(choice);
      pending = cachedBytes(
        key,
        label,
        async () => {
          this.progress({ stage: "requesting-export", part, detail: label });
          const url = await obtainExport(
            { client: this.client, tracker: this.tracker, catalog: () => this.catalog(), ...(this.signal ? { signal: this.signal } : {}) },
            this.skyboxId,
            this.model,
            choice,
          );
          this.progress({ stage: "downloading", part, detail: label, fraction: 0 });
          return url;
        },
        this.downloads,
      );
      this._exports.set(key, pending);
    }
    return pending;
  }

  /** The generation's panorama (file_url) or depth map (depth_map_url), downloaded once per apply. */
  generationFile(file: "panorama" | "depth"): Promise<Uint8Array> {
    let pending = this._files.get(file);
    if (!pending) {
      const url = file === "panorama" ? this.record.file_url : this.record.depth_map_url;
      const label = file === "panorama" ? "panorama" : "depth map";
      pending = cachedBytes(
        generationFileKey(this.skyboxId, file),
        label,
        async () => {
          if (!url) throw new Error(`Skybox ${this.record.id} has no ${file === "panorama" ? "file_url" : "depth_map_url"}`);
          this.progress({ stage: "downloading", detail: label, fraction: 0 });
          return url;
        },
        this.downloads,
      ).then((r) => r.bytes);
      this._files.set(file, pending);
    }
    return pending;
  }

  private catalog(): Promise<ExportCatalog> {
    this._catalog ??= loadExportCatalog(this.client, this.signal);
    return this._catalog;
  }
}
