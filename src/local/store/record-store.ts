import { randomBytes } from "node:crypto";
import * as z from "zod";
import { BatchEntity, ExportEntity, GenerationEntity } from "./entities.ts";
import type { ChangeLog, IdCounters } from "./store-change.ts";

export const RecordsFile = z.object({
  nextGenerationId: z.number().int(),
  nextBatchId: z.number().int(),
  generations: z.array(GenerationEntity),
  exports: z.array(ExportEntity),
  batches: z.array(BatchEntity),
});
export type RecordsFile = z.infer<typeof RecordsFile>;

export type StoredRecord = GenerationEntity | ExportEntity | BatchEntity;

/**
 * Every generation, export and batch of the local service, kept in memory; each change is
 * written to the data store's journal by `changed()` before anything answers about it.
 */
export class RecordStore {
  readonly generations = new Map<number, GenerationEntity>();
  readonly exports = new Map<string, ExportEntity>();
  readonly batches = new Map<number, BatchEntity>();
  private _nextGenerationId: number;
  private _nextBatchId: number;

  constructor(
    data: RecordsFile,
    private readonly _log: ChangeLog,
  ) {
    data.generations.forEach((g) => this.generations.set(g.id, g));
    data.exports.forEach((e) => this.exports.set(e.id, e));
    data.batches.forEach((b) => this.batches.set(b.id, b));
    // Never below an id in use, whatever the counters say.
    this._nextGenerationId = data.generations.reduce((n, g) => Math.max(n, g.id + 1), data.nextGenerationId);
    this._nextBatchId = data.batches.reduce((n, b) => Math.max(n, b.id + 1), data.nextBatchId);
  }

  /** A new generation id; written with the next commit, so no id answered is ever handed out again. */
  nextGenerationId(): number {
    const id = this._nextGenerationId++;
    this._log.stage({ counters: this.counters() });
    return id;
  }

  nextBatchId(): number {
    const id = this._nextBatchId++;
    this._log.stage({ counters: this.counters() });
    return id;
  }

  generationByObfuscatedId(obfuscatedId: string): GenerationEntity | undefined {
    for (const g of this.generations.values()) if (g.obfuscatedId === obfuscatedId) return g;
    return undefined;
  }

  /**
   * Writes these records as they are now (a generation with its batch), with the credits and
   * id counters staged since the last write, as one journal entry: on disk when this returns.
   */
  changed(...records: [StoredRecord, ...StoredRecord[]]): void {
    for (const r of records) this.stage(r);
    this._log.commit();
  }

  /** Everything, as `records.json` holds it. */
  snapshot(): RecordsFile {
    return {
      ...this.counters(),
      generations: [...this.generations.values()],
      exports: [...this.exports.values()],
      batches: [...this.batches.values()],
    };
  }

  private counters(): IdCounters {
    return { nextGenerationId: this._nextGenerationId, nextBatchId: this._nextBatchId };
  }

  private stage(r: StoredRecord): void {
    if ("generationIds" in r) return this._log.stage({ batches: [r] });
    if ("cacheKey" in r) return this._log.stage({ exports: [r] });
    const batch = r.batchId === null ? undefined : this.batches.get(r.batchId);
    this._log.stage({ generations: [r], batches: batch ? [batch] : [] });
  }
}

/** A 32-hex-character hash id. */
export const hashId = () => randomBytes(16).toString("hex");

/** `2026-11-21T05:00:00+00:00`: generation timestamps. */
export const offsetTimestamp = (d = new Date()) => d.toISOString().replace(/\.\d{3}Z$/, "+00:00");
/** `2026-11-21T05:00:00.123000Z`: export and batch timestamps, with microseconds. */
export const microTimestamp = (d = new Date()) => d.toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
