/**
 * Which of two records of one subject is newer. Push, relay and polls race each other and
 * may repeat themselves, so a record only replaces the current one when it is newer:
 * statuses move forward (pending < dispatched < processing < terminal); for equal
 * statuses the later `updated_at` wins, then the smaller queue position.
 */
import type { Batch } from "../../api/schemas/batch.ts";

/** -1: `next` is older than `current`; 0: the same state; 1: newer. */
export type Order = -1 | 0 | 1;

const RANK: Record<string, number> = { pending: 0, dispatched: 1, processing: 2, complete: 3, finalized: 3, error: 3, abort: 3 };

/** The order of a status in a job's life (pending 0 ... terminal 3; -1 unknown): a status never moves backwards. */
export function statusRank(status: string): number {
  return RANK[status] ?? -1;
}

interface Progress {
  status: string;
  updated_at?: string | null | undefined;
  queue_position?: number | null | undefined;
}

/** Orders two records of a generation or an export. */
export function compareRequests(current: Progress, next: Progress): Order {
  return (
    sign(statusRank(next.status) - statusRank(current.status)) ||
    compareTimes(current.updated_at, next.updated_at) ||
    compareQueue(current.queue_position, next.queue_position)
  );
}

/**
 * Orders two records of a batch. A batch's status may step back (processing, then
 * dispatched once its running generation finished and the next waits), so finished
 * generations count first, then the status.
 */
export function compareBatches(current: Batch, next: Batch): Order {
  const finished = (b: Batch) => b.completed + b.errored + b.aborted;
  const terminal = (b: Batch) => (statusRank(b.status) === 3 ? 1 : 0);
  return (
    sign(terminal(next) - terminal(current)) ||
    sign(finished(next) - finished(current)) ||
    sign(statusRank(next.status) - statusRank(current.status)) ||
    compareTimes(current.updated_at, next.updated_at)
  );
}

function compareTimes(current: string | null | undefined, next: string | null | undefined): Order {
  const a = current ? Date.parse(current) : NaN;
  const b = next ? Date.parse(next) : NaN;
  return Number.isNaN(a) || Number.isNaN(b) ? 0 : sign(b - a);
}

/** A queue only moves forward: the smaller position is the newer. */
function compareQueue(current: number | null | undefined, next: number | null | undefined): Order {
  return current == null || next == null ? 0 : sign(current - next);
}

const sign = (n: number): Order => (n > 0 ? 1 : n < 0 ? -1 : 0);
