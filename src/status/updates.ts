import type { Batch, BatchStatus } from "../api/schemas/batch.ts";
import type { ExportRecord } from "../api/schemas/export-request.ts";
import type { Generation, RequestStatus } from "../api/schemas/generation.ts";

/**
 * How an update reached us: the record the watch started from, the push channel, the
 * proxy's relay, or a poll of the API.
 */
export type UpdateSource = "initial" | "push" | "relay" | "poll";

interface UpdateBase {
  source: UpdateSource;
  /** Queue position of the record, when it carries one. */
  queuePosition: number | null;
  /** True on the last update of a watch. */
  terminal: boolean;
}

/** A new status (or queue position) of a generation. */
export interface GenerationUpdate extends UpdateBase {
  subject: "generation";
  status: RequestStatus;
  record: Generation;
}

/** A new status (or queue position) of an export request. */
export interface ExportUpdate extends UpdateBase {
  subject: "export";
  status: RequestStatus;
  record: ExportRecord;
}

/**
 * A change of a batch: its status or counters, or the status of one of its generations.
 * `record.generations` and `generations` hold the newest record seen of each generation,
 * in the batch's order.
 */
export interface BatchUpdate extends UpdateBase {
  subject: "batch";
  status: BatchStatus;
  record: Batch;
  generations: Generation[];
}

/** An update of a generation, an export or a batch. */
export type StatusUpdate = GenerationUpdate | ExportUpdate | BatchUpdate;
