import { Observable } from "@babylonjs/core/Misc/observable.js";
import { isRequestTerminal, type BatchParams, type GenerateParams, type Generation, type Style } from "../../../api/index.ts";
import { describeError, type PaneError } from "../../error-text.ts";
import type { ConnectionState } from "../connection-state.ts";
import { withChange, withJob, withoutEnded } from "./job-list.ts";
import { batchRequest, generationRequest, type JobRequest } from "./job-requests.ts";
import { cancellableIds, type JobView } from "./job-view.ts";
import { lessonOf, type PlanRefusal } from "./plan-lessons.ts";
import { Slice } from "../slice.ts";
import { Watches } from "./watches.ts";

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

/**
 * Generations and batches the pane started: the Progress view's state. Starting a request
 * (`job-requests.ts`), following it (`Watches`), learning the plan from a refusal
 * (`plan-lessons.ts`) and keeping the list short (`job-list.ts`) each live in their own module.
 */
export class JobsState extends Slice<JobsValue> {
  /** A generation completed (alone or in a batch). */
  public readonly onGenerationCompleteObservable = new Observable<Generation>();
  /** A generation ended, completed, cancelled or failed (alone or in a batch): the history changed. */
  public readonly onGenerationEndedObservable = new Observable<Generation>();
  /** The service refused a request because of the plan. */
  public readonly onPlanRefusedObservable = new Observable<PlanRefusal>();
  private readonly _watches: Watches;
  /** Generations already announced as ended (a terminal status is final, but arrives by push and poll). */
  private readonly _ended = new Set<number>();

  public constructor(private readonly _connection: ConnectionState) {
    super({ jobs: [], submitting: false, error: null, batchError: null, batchBlocked: null, learnedBatchCap: null });
    this._watches = new Watches(() => _connection.tracker());
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
  public generate(params: GenerateParams, style: Style, mode: string): Promise<Generation | null> {
    return this._start(generationRequest(params, style, mode));
  }

  /**
   * Sends a batch and follows it and its generations.
   * @param params the request with its quantity
   * @param style its style
   * @returns the batch id, or null when the request failed (the error is in `value.batchError`)
   */
  public async generateBatch(params: BatchParams, style: Style): Promise<number | null> {
    return (await this._start(batchRequest(params, style)))?.id ?? null;
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
    const jobs = withoutEnded(this.value.jobs, key);
    if (jobs.length !== this.value.jobs.length) this._set({ jobs });
  }

  /** Clears the error of the last request. */
  public clearError(which: "error" | "batchError" = "error"): void {
    this._set({ [which]: null });
  }

  /** Sends a request, shows its job and follows it; a refusal is shown and learnt from. */
  private async _start<T>(request: JobRequest<T>): Promise<T | null> {
    this._set({ submitting: true, [request.errorField]: null });
    try {
      const created = await request.send(this._connection.client);
      const job = request.job(created);
      this._set({ jobs: withJob(this.value.jobs, job) });
      void this._watches.follow(
        job.key,
        (tracker) => request.watch(tracker, created, (change, generations) => this._update(job.key, change, generations)),
        (error) => this._patch(job.key, { error: describeError(error, request.titles.lost) }),
      );
      return created;
    } catch (error) {
      this._set({ [request.errorField]: describeError(error, request.titles.refused) });
      this._learn(error, request);
      return null;
    } finally {
      this._set({ submitting: false });
    }
  }

  private _learn(error: unknown, request: JobRequest<unknown>): void {
    const lesson = lessonOf(error, request.feature);
    if (!lesson) return;
    if ("batchCap" in lesson) return this._set({ learnedBatchCap: lesson.batchCap });
    if (lesson.refusal.what === "batch") this._set({ batchBlocked: lesson.refusal.reason });
    this.onPlanRefusedObservable.notifyObservers(lesson.refusal);
  }

  private _update(key: string, change: (job: JobView) => JobView, generations: readonly Generation[] = []): void {
    this._set({ jobs: withChange(this.value.jobs, key, change) });
    generations.forEach((g) => this._announce(g));
  }

  private _announce(record: Generation): void {
    if (!isRequestTerminal(record.status) || this._ended.has(record.id)) return;
    this._ended.add(record.id);
    this.onGenerationEndedObservable.notifyObservers(record);
    if (record.status === "complete") this.onGenerationCompleteObservable.notifyObservers(record);
  }

  private _patch(key: string, patch: Partial<JobView>): void {
    this._update(key, (j) => ({ ...j, ...patch }));
  }

  /** Stops following every job (nothing is cancelled on the service). */
  public override dispose(): void {
    this._watches.stopAll();
    this.onGenerationCompleteObservable.clear();
    this.onGenerationEndedObservable.clear();
    this.onPlanRefusedObservable.clear();
    super.dispose();
  }
}
