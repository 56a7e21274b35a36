import { Observable } from "@babylonjs/core/Misc/observable.js";
import { isSkyboxApiError, styleInfo, styleModel, type BatchParams, type GenerateParams, type Generation, type Style } from "../../api/index.ts";
import { describeError, type PaneError } from "../error-text.ts";
import type { ConnectionState } from "./ConnectionState.ts";
import { applyBatchUpdate, applyGenerationUpdate, batchJob, cancellableIds, generationJob, isEnded, type JobView } from "./job-view.ts";
import { Slice } from "./Slice.ts";

export interface JobsValue {
  /** Newest first. */
  jobs: JobView[];
  /** A request is being sent. */
  submitting: boolean;
  /** The last generation request that failed before anything started. */
  error: PaneError | null;
  /** The last batch request that failed before anything started. */
  batchError: PaneError | null;
  /** Why batches are unavailable, once the service said so. */
  batchBlocked: string | null;
  /** The plan's credits per batch, once a refusal named it. */
  learnedBatchCap: number | null;
}

/** Told when the service refuses something because of the plan, so the pane can grey it out. */
export type PlanRefusal = { what: "model4" | "batch"; reason: string };

const MAX_JOBS = 12;

/**
 * Generations and batches the pane started: sends them, follows each one with the status
 * tracker (push when available, polling otherwise), and cancels them.
 */
export class JobsState extends Slice<JobsValue> {
  /** A generation completed (alone or in a batch). */
  public readonly onGenerationCompleteObservable = new Observable<Generation>();
  /** The service refused a request because of the plan. */
  public readonly onPlanRefusedObservable = new Observable<PlanRefusal>();
  private readonly _watches = new Map<string, { stop(): void }>();
  private readonly _announced = new Set<number>();

  public constructor(private readonly _connection: ConnectionState) {
    super({ jobs: [], submitting: false, error: null, batchError: null, batchBlocked: null, learnedBatchCap: null });
  }

  /** The job with this key. */
  public get(key: string): JobView | undefined {
    return this.value.jobs.find((j) => j.key === key);
  }

  /**
   * Sends a generation and follows it.
   * @param params the request
   * @param style its style (checked against the style's limits before sending)
   * @param mode what the request is (generate, edit, image-to-pano), for the view
   * @returns the created record, or null when the request failed (the error is in `value.error`)
   */
  public async generate(params: GenerateParams, style: Style, mode: string): Promise<Generation | null> {
    this._set({ submitting: true, error: null });
    try {
      const record = await this._connection.client.generate(params, { style: styleInfo(style) });
      this._add(generationJob(record, mode));
      void this._watchGeneration(record);
      return record;
    } catch (error) {
      this._refused(error, styleModel(style) === 4 ? "model4" : null, "Generation could not start");
      return null;
    } finally {
      this._set({ submitting: false });
    }
  }

  /**
   * Sends a batch and follows it and its generations.
   * @param params the request with its quantity
   * @param style its style
   * @returns the batch id, or null when the request failed
   */
  public async generateBatch(params: BatchParams, style: Style): Promise<number | null> {
    this._set({ submitting: true, batchError: null });
    const variantName = style.variants?.find((v) => v.id === params.variant_id)?.name ?? null;
    try {
      const batch = await this._connection.client.generateBatch(params, { style: styleInfo(style), variantName });
      const job = batchJob(batch, `${params.quantity} × ${params.prompt}`);
      this._add(job);
      void this._watchBatch(job.key, batch);
      return batch.id;
    } catch (error) {
      // A Model 4 batch refused by the plan says nothing about Model 3 batches.
      this._refused(error, styleModel(style) === 4 ? null : "batch", "Batch could not start", true);
      return null;
    } finally {
      this._set({ submitting: false });
    }
  }

  /** Cancels a running generation, or the unfinished generations of a batch. */
  public async cancel(key: string): Promise<void> {
    const job = this.get(key);
    if (!job) return;
    this._patch(key, { cancelling: true, error: null });
    try {
      await Promise.all(cancellableIds(job).map((id) => this._connection.client.cancelGeneration(id)));
    } catch (error) {
      this._patch(key, { cancelling: false, error: describeError(error, "Cancel failed") });
    }
  }

  /** Removes an ended job from the list. */
  public dismiss(key: string): void {
    const job = this.get(key);
    if (job && isEnded(job)) this._set({ jobs: this.value.jobs.filter((j) => j.key !== key) });
  }

  /** Clears the error of the last request. */
  public clearError(which: "error" | "batchError" = "error"): void {
    this._set({ [which]: null });
  }

  private _refused(error: unknown, what: PlanRefusal["what"] | null, title: string, batch = false): void {
    const shown = describeError(error, title);
    this._set(batch ? { batchError: shown } : { error: shown });
    if (!isSkyboxApiError(error) || error.kind !== "plan_forbidden") return;
    const reason = shown.serverMessage ?? shown.message;
    // "…exceeds your plan limit of 30 credits per batch request": the cap, not a ban.
    const cap = /limit of (\d+) credits per batch/i.exec(error.serverMessage);
    if (batch && cap) return this._set({ learnedBatchCap: Number(cap[1]) });
    // A 403 is the plan itself refusing the feature (batches, or Model 4).
    if (!what || error.status !== 403) return;
    if (what === "batch") this._set({ batchBlocked: reason });
    this.onPlanRefusedObservable.notifyObservers({ what, reason });
  }

  private async _watchGeneration(record: Generation): Promise<void> {
    const key = `generation:${record.id}`;
    try {
      const tracker = await this._connection.tracker();
      const watch = tracker.watchGeneration(record, { onUpdate: (u) => this._update(key, (j) => applyGenerationUpdate(j, u), u.record) });
      this._watches.set(key, watch);
      await watch.done;
    } catch (error) {
      this._patch(key, { error: describeError(error, "Lost track of the generation") });
    } finally {
      this._watches.delete(key);
    }
  }

  private async _watchBatch(key: string, batch: Parameters<typeof batchJob>[0]): Promise<void> {
    try {
      const tracker = await this._connection.tracker();
      const watch = tracker.watchBatch(batch, {
        onUpdate: (u) => {
          this._update(key, (j) => applyBatchUpdate(j, u));
          u.generations.forEach((g) => this._announce(g));
        },
      });
      this._watches.set(key, watch);
      await watch.done;
    } catch (error) {
      this._patch(key, { error: describeError(error, "Lost track of the batch") });
    } finally {
      this._watches.delete(key);
    }
  }

  private _update(key: string, change: (job: JobView) => JobView, record?: Generation): void {
    this._set({ jobs: this.value.jobs.map((j) => (j.key === key ? change(j) : j)) });
    if (record) this._announce(record);
  }

  private _announce(record: Generation): void {
    if (record.status !== "complete" || this._announced.has(record.id)) return;
    this._announced.add(record.id);
    this.onGenerationCompleteObservable.notifyObservers(record);
  }

  private _patch(key: string, patch: Partial<JobView>): void {
    this._update(key, (j) => ({ ...j, ...patch }));
  }

  private _add(job: JobView): void {
    // Old ended jobs make room; running ones stay whatever their number.
    this._set({ jobs: [job, ...this.value.jobs].filter((j, i) => i < MAX_JOBS || !isEnded(j)) });
  }

  /** Stops following every job (nothing is cancelled on the service). */
  public override dispose(): void {
    this._watches.forEach((w) => w.stop());
    this._watches.clear();
    this.onGenerationCompleteObservable.clear();
    this.onPlanRefusedObservable.clear();
    super.dispose();
  }
}
