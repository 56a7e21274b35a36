import { isRequestTerminal, isTerminalStatus, type Batch, type Generation } from "../../../api/index.ts";
import type { BatchUpdate, GenerationUpdate, UpdateSource } from "../../../status/index.ts";
import { describeEnded, type PaneError } from "../../error-text.ts";

/** A status seen, and when (ms since the epoch). */
export interface JobStep {
  status: string;
  at: number;
}

/** A batch's counters and the newest record of each of its generations. */
export interface BatchProgress {
  quantity: number;
  submitted: number;
  completed: number;
  errored: number;
  aborted: number;
  generations: Generation[];
  /** Generations refused when the batch was submitted, in the service's words. */
  submissionErrors: string[];
}

/** A generation or a batch the pane started, as the Progress view shows it. */
export interface JobView {
  /** `generation:<id>` or `batch:<id>`. */
  key: string;
  kind: "generation" | "batch";
  id: number;
  title: string;
  /** What kind of request: generate, edit, image-to-pano or batch. */
  mode: string;
  status: string;
  queuePosition: number | null;
  /** Every status seen, in order, with the time it was seen. */
  steps: JobStep[];
  startedAt: number;
  endedAt: number | null;
  record: Generation | null;
  batch: BatchProgress | null;
  /** Where the last update came from (push, relay, poll). */
  source: UpdateSource | null;
  error: PaneError | null;
  cancelling: boolean;
}

export const isEnded = (job: JobView) => job.endedAt !== null;

function withStep(job: JobView, status: string, now: number): JobView {
  const last = job.steps.at(-1);
  const steps = last?.status === status ? job.steps : [...job.steps, { status, at: now }];
  return { ...job, status, steps, endedAt: isTerminalStatus(status) ? (job.endedAt ?? now) : null };
}

/** A new job for a generation record just created. */
export function generationJob(record: Generation, mode: string, now = Date.now()): JobView {
  const job: JobView = {
    key: `generation:${record.id}`,
    kind: "generation",
    id: record.id,
    title: record.title || record.prompt || `Skybox #${record.id}`,
    mode,
    status: record.status,
    queuePosition: record.queue_position ?? null,
    steps: [],
    startedAt: now,
    endedAt: null,
    record,
    batch: null,
    source: null,
    error: null,
    cancelling: false,
  };
  return withStep(job, record.status, now);
}

/** A new job for a batch just submitted. */
export function batchJob(batch: Batch, title: string, now = Date.now()): JobView {
  const job: JobView = {
    key: `batch:${batch.id}`,
    kind: "batch",
    id: batch.id,
    title,
    mode: "batch",
    status: batch.status,
    queuePosition: null,
    steps: [],
    startedAt: now,
    endedAt: null,
    record: null,
    batch: progressOf(batch, batch.generations ?? []),
    source: null,
    error: null,
    cancelling: false,
  };
  return withStep(job, batch.status, now);
}

function progressOf(batch: Batch, generations: Generation[]): BatchProgress {
  return {
    quantity: batch.quantity,
    submitted: batch.successfully_submitted,
    completed: batch.completed,
    errored: batch.errored,
    aborted: batch.aborted,
    generations,
    submissionErrors: batch.submission_errors.map((e) => e.message ?? `generation ${e.index ?? "?"} was refused`),
  };
}

/** The job after an update of its generation. */
export function applyGenerationUpdate(job: JobView, u: GenerationUpdate, now = Date.now()): JobView {
  const next = withStep({ ...job, record: u.record, queuePosition: u.queuePosition, source: u.source }, u.status, now);
  if (u.status === "error" || u.status === "abort")
    return { ...next, error: describeEnded(u.status, u.record.error_message, "Generation"), cancelling: false };
  return u.terminal ? { ...next, cancelling: false } : next;
}

/** The job after an update of its batch (counters or one of its generations). */
export function applyBatchUpdate(job: JobView, u: BatchUpdate, now = Date.now()): JobView {
  const queue = u.generations.map((g) => g.queue_position ?? null).filter((q): q is number => q != null && q > 0);
  const next = withStep(
    { ...job, batch: progressOf(u.record, u.generations), queuePosition: queue.length ? Math.min(...queue) : null, source: u.source },
    u.status,
    now,
  );
  if (u.status === "error") return { ...next, error: describeEnded("error", null, "Batch"), cancelling: false };
  return u.terminal ? { ...next, cancelling: false } : next;
}

/** Generations of a job that can still be cancelled. */
export function cancellableIds(job: JobView): number[] {
  if (job.kind === "generation") return isEnded(job) ? [] : [job.id];
  return (job.batch?.generations ?? []).filter((g) => !isRequestTerminal(g.status)).map((g) => g.id);
}
