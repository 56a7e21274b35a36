import { mkdirSync } from "node:fs";
import { join, relative } from "node:path";
import { EXPORT_RESOLUTIONS, type ExportTypeKey, HDRI_MODES, MESH_QUALITIES } from "../../api/reference.ts";
import { completesImmediately } from "../../api/rules/export-rules.ts";
import type { ExportRequest } from "../imagery/contract.ts";
import { generationDir } from "../records/files.ts";
import { syncFiles } from "../store/durable-files.ts";
import type { ExportEntity } from "../store/entities.ts";
import { microTimestamp } from "../store/record-store.ts";
import { JobQueue } from "./job-queue.ts";
import { scaled } from "./render-request.ts";
import { sleep } from "./timing.ts";
import { endFailedJob, isActive, type RunnerDeps } from "./runner-deps.ts";

export interface ExportRunnerDeps extends RunnerDeps {
  /** Fraction of its named resolution an export is rendered at (LocalServiceOptions.exportScale). */
  exportScale: number;
}

/**
 * Writes export files. JPG and Depth Map complete within the request; an identical export
 * already completed is answered complete at once with the same file; the rest go through
 * pending → dispatched → processing → complete with an event at each step.
 */
export class ExportRunner {
  readonly queue: JobQueue<string>;

  constructor(private readonly _d: ExportRunnerDeps) {
    this.queue = new JobQueue({
      concurrency: _d.concurrency,
      run: (id) => this.run(id),
      onPositions: (moved) => moved.forEach((id) => this.emitIfPending(id)),
      onFailure: (id, error) =>
        endFailedJob(_d, `export ${id}`, error, (sentence) => {
          const e = _d.store.exports.get(id);
          if (e && isActive(e)) this.finish(e, "error", sentence, null);
        }),
    });
  }

  /** Stores a new export and starts it; resolves once the record may be returned. */
  async submit(e: ExportEntity): Promise<void> {
    const done = [...this._d.store.exports.values()].find((o) => o.cacheKey === e.cacheKey && o.status === "complete" && o.file);
    this._d.store.exports.set(e.id, e);
    // On disk before anyone can read it (an immediate export is readable while it is written).
    this._d.store.changed(e);
    if (done) return this.finish(e, "complete", null, done.file);
    if (completesImmediately(e.typeKey)) return this.write(e);
    this._d.events.export(e);
    this.queue.enqueue(e.id);
  }

  resume(): void {
    for (const e of this._d.store.exports.values()) if (isActive(e)) this.queue.enqueue(e.id);
  }

  cancel(e: ExportEntity): boolean {
    if (!isActive(e)) return false;
    this.queue.remove(e.id);
    this.finish(e, "abort", null, null);
    return true;
  }

  private async run(id: string): Promise<void> {
    const e = this._d.store.exports.get(id);
    if (!e || !isActive(e)) return;
    if (e.status === "pending") {
      await sleep(Math.max(0, Date.parse(e.createdAt) + this._d.delay("exportPending") - Date.now()));
      if (!this.step(e, "dispatched")) return;
    }
    if (e.status === "dispatched") {
      await sleep(this._d.delay("exportDispatch"));
      if (!this.step(e, "processing")) return;
    }
    const minimum = sleep(this._d.delay("exportProcessing"));
    await this.write(e, minimum);
  }

  /** Renders the file and completes the export (or ends it in error). */
  private async write(e: ExportEntity, before: Promise<void> = Promise.resolve()): Promise<void> {
    try {
      const result = await this._d.imagery.runExport(this.requestOf(e));
      await syncFiles(result.path);
      await before;
      if (isActive(e) && !this.queue.closed) this.finish(e, "complete", null, relative(this._d.dataDir, result.path));
    } catch (error) {
      // Stopped by the shutdown: the next start resumes it.
      if (this.queue.closed) return;
      this._d.log(`export ${e.id} failed: ${(error as Error).message}`);
      if (isActive(e)) this.finish(e, "error", `Export failed: ${(error as Error).message}`, null);
    }
  }

  private requestOf(e: ExportEntity): ExportRequest {
    const g = this._d.store.generations.get(e.generationId);
    if (!g) throw new Error("the skybox of this export no longer exists");
    const resolution = EXPORT_RESOLUTIONS.find((r) => r.id === e.resolutionId) ?? EXPORT_RESOLUTIONS[1];
    const outDir = join(this._d.dataDir, "exports", g.obfuscatedId);
    mkdirSync(outDir, { recursive: true });
    const hdriMode = HDRI_MODES.find((m) => m.id === e.hdriModeId)?.key;
    const meshQuality = MESH_QUALITIES.find((m) => m.id === e.meshQualityId)?.key;
    return {
      from: generationDir(this._d.dataDir, g.obfuscatedId),
      type: e.typeKey as ExportTypeKey,
      size: scaled(resolution, this._d.exportScale),
      ...(hdriMode ? { hdriMode } : {}),
      ...(meshQuality ? { meshQuality } : {}),
      ...(e.depthScale != null ? { depthScale: e.depthScale } : {}),
      out: join(outDir, e.cacheKey.replace(/[^\w.-]+/g, "_")),
      imageScale: this._d.imageScale,
    };
  }

  private step(e: ExportEntity, status: "dispatched" | "processing"): boolean {
    // Shutting down: the export stays where it is on disk, and the next start resumes it.
    if (!isActive(e) || this.queue.closed) return false;
    e.status = status;
    e.updatedAt = microTimestamp();
    this._d.store.changed(e);
    this._d.events.export(e);
    return true;
  }

  private finish(e: ExportEntity, status: "complete" | "error" | "abort", errorMessage: string | null, file: string | null): void {
    e.status = status;
    e.errorMessage = errorMessage;
    e.file = file;
    e.updatedAt = microTimestamp();
    this._d.store.changed(e);
    this._d.events.export(e);
  }

  private emitIfPending(id: string): void {
    const e = this._d.store.exports.get(id);
    if (e?.status === "pending") this._d.events.export(e);
  }
}
