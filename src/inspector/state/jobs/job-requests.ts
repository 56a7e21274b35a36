/**
 * The two requests the Progress view follows, generations and batches, each described once:
 * how it is sent, which job shows it, how its updates change that job, and what a refusal of
 * it means. `JobsState` runs both through one path.
 */
import {
  styleInfo,
  styleModel,
  type Batch,
  type BatchParams,
  type GenerateParams,
  type Generation,
  type SkyboxClient,
  type Style,
} from "../../../api/index.ts";
import type { StatusTracker } from "../../../status/index.ts";
import { applyBatchUpdate, applyGenerationUpdate, batchJob, generationJob, type JobView } from "./job-view.ts";
import type { PlanFeature } from "./plan-lessons.ts";
import type { RunningWatch } from "./watches.ts";

/** Told on every update of a job: how the job changes, and the generations the update carries. */
export type JobChange = (change: (job: JobView) => JobView, generations: readonly Generation[]) => void;

/** One request the pane sends and follows; `T` is what the service creates. */
export interface JobRequest<T> {
  /** Where its failure to start is shown. */
  errorField: "error" | "batchError";
  /** Title of a failure to start, and of a failure to follow. */
  titles: { refused: string; lost: string };
  /** The plan feature a 403 on it takes away, or null when such a refusal says nothing general. */
  feature: PlanFeature | null;
  send(client: SkyboxClient): Promise<T>;
  job(created: T): JobView;
  watch(tracker: StatusTracker, created: T, onChange: JobChange): RunningWatch;
}

/**
 * A generation, an edit or an image to pano, checked against its style's limits before sending.
 * @param mode what the request is, for the view
 */
export function generationRequest(params: GenerateParams, style: Style, mode: string): JobRequest<Generation> {
  return {
    errorField: "error",
    titles: { refused: "Generation could not start", lost: "Lost track of the generation" },
    feature: styleModel(style) === 4 ? "model4" : null,
    send: (client) => client.generate(params, { style: styleInfo(style) }),
    job: (record) => generationJob(record, mode),
    watch: (tracker, record, onChange) =>
      tracker.watchGeneration(record, { onUpdate: (u) => onChange((j) => applyGenerationUpdate(j, u), [u.record]) }),
  };
}

/** A batch of `params.quantity` generations, followed with its counters and each generation. */
export function batchRequest(params: BatchParams, style: Style): JobRequest<Batch> {
  const variantName = style.variants?.find((v) => v.id === params.variant_id)?.name ?? null;
  return {
    errorField: "batchError",
    titles: { refused: "Batch could not start", lost: "Lost track of the batch" },
    // A Model 4 batch refused by the plan says nothing about Model 3 batches.
    feature: styleModel(style) === 4 ? null : "batch",
    send: (client) => client.generateBatch(params, { style: styleInfo(style), variantName }),
    job: (batch) => batchJob(batch, `${params.quantity} × ${params.prompt}`),
    watch: (tracker, batch, onChange) =>
      tracker.watchBatch(batch, { onUpdate: (u) => onChange((j) => applyBatchUpdate(j, u), u.generations) }),
  };
}
