import { randomBytes } from "node:crypto";
import { join } from "node:path";
import * as z from "zod";
import { BatchEntity, ExportEntity, GenerationEntity } from "./entities.ts";
import { JsonFile } from "./json-file.ts";

const RecordsFile = z.object({
  nextGenerationId: z.number().int(),
  nextBatchId: z.number().int(),
  generations: z.array(GenerationEntity),
  exports: z.array(ExportEntity),
  batches: z.array(BatchEntity),
});

/**
 * Every generation, export and batch of the local service, kept in memory and persisted to
 * `<data-dir>/records.json` after each change (coalesced, atomic).
 */
export class RecordStore {
  readonly generations = new Map<number, GenerationEntity>();
  readonly exports = new Map<string, ExportEntity>();
  readonly batches = new Map<number, BatchEntity>();
  private _nextGenerationId: number;
  private _nextBatchId: number;
  private readonly _file: JsonFile<typeof RecordsFile>;

  constructor(dataDir: string) {
    this._file = new JsonFile(join(dataDir, "records.json"), RecordsFile);
    const data = this._file.load({ nextGenerationId: 1, nextBatchId: 1, generations: [], exports: [], batches: [] });
    data.generations.forEach((g) => this.generations.set(g.id, g));
    data.exports.forEach((e) => this.exports.set(e.id, e));
    data.batches.forEach((b) => this.batches.set(b.id, b));
    this._nextGenerationId = data.nextGenerationId;
    this._nextBatchId = data.nextBatchId;
  }

  nextGenerationId(): number {
    return this._nextGenerationId++;
  }

  nextBatchId(): number {
    return this._nextBatchId++;
  }

  generationByObfuscatedId(obfuscatedId: string): GenerationEntity | undefined {
    for (const g of this.generations.values()) if (g.obfuscatedId === obfuscatedId) return g;
    return undefined;
  }

  /** Marks the store changed; it is written shortly after. */
  changed(): void {
    this._file.save(() => ({
      nextGenerationId: this._nextGenerationId,
      nextBatchId: this._nextBatchId,
      generations: [...this.generations.values()],
      exports: [...this.exports.values()],
      batches: [...this.batches.values()],
    }));
  }

  flush(): void {
    this._file.flush();
  }
}

/** A 32-hex-character hash id. */
export const hashId = () => randomBytes(16).toString("hex");

/** `2026-11-21T05:00:00+00:00`: generation timestamps. */
export const offsetTimestamp = (d = new Date()) => d.toISOString().replace(/\.\d{3}Z$/, "+00:00");
/** `2026-11-21T05:00:00.123000Z`: export and batch timestamps, with microseconds. */
export const microTimestamp = (d = new Date()) => d.toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
