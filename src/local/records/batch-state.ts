import type { BatchStatus } from "../../api/schemas/batch.ts";
import type { BatchEntity, GenerationEntity } from "../store/entities.ts";

export interface DerivedBatch {
  status: BatchStatus;
  completed: number;
  errored: number;
  aborted: number;
}

/**
 * A batch's status and counters, from its generations (spec "Batch statuses"):
 * finalized when all finished and one completed; error when none completed and one
 * errored; abort when all aborted; else processing / dispatched / pending by the most
 * advanced generation. A batch none of whose generations could be queued is error.
 */
export function deriveBatch(batch: Pick<BatchEntity, "generationIds">, generations: readonly GenerationEntity[]): DerivedBatch {
  const count = (s: string) => generations.filter((g) => g.status === s).length;
  const completed = count("complete");
  const errored = count("error");
  const aborted = count("abort");
  const finished = completed + errored + aborted;
  let status: BatchStatus;
  if (batch.generationIds.length === 0) status = "error";
  else if (finished === generations.length) status = completed > 0 ? "finalized" : errored > 0 ? "error" : "abort";
  else if (count("processing") > 0) status = "processing";
  else if (count("dispatched") > 0 || finished > 0) status = "dispatched";
  else status = "pending";
  return { status, completed, errored, aborted };
}
