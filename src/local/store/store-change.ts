import * as z from "zod";
import { Account } from "./accounts.ts";
import { BatchEntity, ExportEntity, GenerationEntity } from "./entities.ts";

/** The id counters of the store: the next numeric ids to hand out. */
export const IdCounters = z.object({ nextGenerationId: z.number().int(), nextBatchId: z.number().int() });
export type IdCounters = z.infer<typeof IdCounters>;

/**
 * One journal entry: whole records and accounts as they are after a change (absolute, so
 * replaying an entry twice changes nothing), and the id counters when ids were handed out.
 * A charge travels with the record it pays for, a refund with the status change.
 */
export const StoreChange = z.object({
  accounts: z.array(Account).default([]),
  generations: z.array(GenerationEntity).default([]),
  exports: z.array(ExportEntity).default([]),
  batches: z.array(BatchEntity).default([]),
  counters: IdCounters.optional(),
});
export type StoreChange = z.infer<typeof StoreChange>;

/** What the accounts and the records write their changes through (the data store). */
export interface ChangeLog {
  /** Adds to the change the next `commit` writes. */
  stage(part: Partial<StoreChange>): void;
  /** Writes everything staged as one fsynced journal entry; on disk when this returns. */
  commit(): void;
}
