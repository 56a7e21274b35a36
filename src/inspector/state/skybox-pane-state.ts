import type { Observer } from "@babylonjs/core/Misc/observable.js";
import type { Scene } from "@babylonjs/core/scene.js";
import { batchCapFor, type Generation, type Plan } from "../../api/index.ts";
import type { SkyboxPaneOptions } from "../skybox-pane-options.ts";
import { ApplyState } from "./apply/apply-state.ts";
import { batchProblem, shownBatchCap, type ShownBatchCap } from "./form/batch-request.ts";
import { ConnectionState } from "./connection-state.ts";
import { EditPicker } from "./edit/edit-picker.ts";
import { ExportState } from "./export/export-state.ts";
import { GenerateForm } from "./form/generate-form.ts";
import { costOf, formProblems, paramsOf, type RequestContext } from "./form/generation-request.ts";
import { HistoryState } from "./history-state.ts";
import { JobsState } from "./jobs/jobs-state.ts";
import { typedProblem } from "./form/number-inputs.ts";
import { PaneLayout } from "./pane-layout.ts";
import { SaveState } from "./save-state.ts";
import { StylesState } from "./form/styles-state.ts";

/**
 * Everything the Skybox pane shows, outside React: the form, the jobs under way, the
 * history, the applied skybox and the exports. The pane's components only read snapshots
 * and call methods, so closing, remounting or undocking the pane loses nothing, and an app
 * can drive the same state from code.
 */
export class SkyboxPaneState {
  public readonly connection: ConnectionState;
  public readonly styles: StylesState;
  public readonly form = new GenerateForm();
  public readonly layout = new PaneLayout();
  public readonly jobs: JobsState;
  public readonly history: HistoryState;
  public readonly apply: ApplyState;
  public readonly exports: ExportState;
  public readonly save: SaveState;
  public readonly edit: EditPicker;
  /** The account's plan, when the app gave it. */
  public readonly plan: Plan | null;
  private _scene: Scene | null = null;
  private _started = false;
  private readonly _observers: { remove(): void }[] = [];

  public constructor(options: SkyboxPaneOptions = {}) {
    this.plan = options.plan ?? null;
    this.connection = new ConnectionState({ baseUrl: options.baseUrl ?? "/skybox", ...pick(options, "client", "tracker", "fetch") });
    const client = this.connection.client;
    this.styles = new StylesState(client, options.plan ?? null);
    this.jobs = new JobsState(this.connection);
    this.history = new HistoryState(client, options.pageSize ?? 12);
    this.apply = new ApplyState({
      connection: this.connection,
      scene: () => this._scene,
      settings: options.apply,
      sunReplaces: options.sunReplaces,
    });
    this.exports = new ExportState(this.connection);
    this.save = new SaveState(this.connection, this.apply);
    this.edit = new EditPicker(this.form, () => this.apply.rotation);
    this._wire();
  }

  private _wire(): void {
    const add = (o: Observer<unknown> | { remove(): void }) => this._observers.push(o);
    // A cancelled or failed generation is listed at once too: the service records it when it ends.
    add(this.jobs.onGenerationEndedObservable.add(() => void this.history.refresh()));
    // Its files go with it: an apply of it under way stops rather than read them half gone.
    add(this.history.onDeletedObservable.add((id) => this.apply.deleted(id)));
    add(this.jobs.onPlanRefusedObservable.add((r) => r.what === "model4" && this.styles.blockModel4(r.reason)));
    // The skybox in the scene is what one usually exports next (a history item's Export overrides it).
    add(this.apply.onAppliedObservable.add((h) => h && this.exports.setTarget(h.record)));
    add(this.apply.onChangedObservable.add(() => this.edit.refresh()));
    add(this.styles.onChangedObservable.add(() => this._defaultStyle()));
    // Back after an outage: what failed to load meanwhile loads again (jobs poll by themselves).
    let lost = false;
    add(
      this.connection.onChangedObservable.add(({ lost: now }) => {
        if (lost && !now) this._reloadFailed();
        lost = now !== null;
      }),
    );
  }

  private _reloadFailed(): void {
    if (this.history.value.error) void this.history.refresh();
    if (this.styles.value.error) void this.styles.load();
  }

  /** The scene skyboxes are applied to and edits are picked in. */
  public get scene(): Scene | null {
    return this._scene;
  }

  /** Sets the scene the pane applies to and edits (null when the Inspector has none). */
  public setScene(scene: Scene | null): void {
    this._scene = scene;
    this.edit.setScene(scene);
  }

  /** Loads styles, history and export types the first time the pane shows (again after a failure). */
  public start(): void {
    if (this._started && !this.styles.value.error) return;
    this._started = true;
    void this.styles.load();
    void this.history.refresh();
    void this.exports.loadTypes();
    void this.connection.tracker();
  }

  /** What the form's request needs to be checked and sent. */
  public get requestContext(): RequestContext {
    return {
      style: this.styles.byId(this.form.value.styleId),
      editSource: this.apply.value.applied,
      model4Blocked: this.styles.value.model4Blocked,
    };
  }

  /** Why Generate is disabled, in sentences (empty when it is enabled). */
  public get problems(): string[] {
    return formProblems(this.form.value, this.requestContext);
  }

  /** Credits one generation of the form costs (null before a style is chosen). */
  public get cost(): number | null {
    return costOf(this.form.value, this.requestContext.style);
  }

  /** Credits one batch may cost on the plan: a number, null when batches are unavailable, undefined when the plan is not known. */
  public get batchCap(): number | null | undefined {
    return this.plan ? batchCapFor(this.plan) : undefined;
  }

  /** The cap the Batch section shows: the plan's, else the one a refusal named. */
  public get shownBatchCap(): ShownBatchCap {
    return shownBatchCap(this.batchCap, this.jobs.value.learnedBatchCap);
  }

  /** Why a batch of the form cannot be sent (mode, plan, cap), in a sentence; null when it can. */
  public get batchProblem(): string | null {
    return batchProblem(this.form.value, { each: this.cost, cap: this.shownBatchCap.cap, blocked: this.jobs.value.batchBlocked });
  }

  /** Sends the form: a generation, an edit of the applied skybox, or an image to pano. */
  public async generate(): Promise<Generation | null> {
    const ctx = this.requestContext;
    if (!ctx.style || this.problems.length) return null;
    return this.jobs.generate(paramsOf(this.form.value, ctx), ctx.style, this.form.value.mode);
  }

  /** Sends the form as a batch of `form.quantity` generations. */
  public async generateBatch(): Promise<number | null> {
    const ctx = this.requestContext;
    if (!ctx.style || this.problems.length || this.form.value.mode !== "generate" || typedProblem(this.form.value, "quantity")) return null;
    return this.jobs.generateBatch({ ...paramsOf(this.form.value, ctx), quantity: this.form.value.quantity }, ctx.style);
  }

  /** Applies a skybox from the history or a job (replaces the applied one once ready). */
  public applyRecord(record: Generation): Promise<unknown> {
    return this.apply.apply(record);
  }

  /** Fills the form to remix a skybox. */
  public remix(record: Generation): void {
    this.form.set({ mode: "generate", remix: { id: record.id, title: record.title || `#${record.id}` } });
    this.layout.reveal("generate");
  }

  /** Puts a skybox's seed (and its prompt and style, when empty) into the form. */
  public reuseSeed(record: Generation): void {
    const f = this.form.value;
    this.form.set({
      seed: record.seed ?? null,
      prompt: f.prompt || record.prompt || "",
      styleId: f.styleId ?? record.skybox_style_id ?? null,
    });
  }

  /** Makes a skybox the Export section's target. */
  public exportFrom(record: Generation): void {
    this.exports.setTarget(record);
    this.layout.reveal("export");
  }

  /** First style of the menu, once loaded, when none is chosen. */
  private _defaultStyle(): void {
    if (this.form.value.styleId != null) return;
    const first = this.styles.value.families[3][0]?.items[0];
    if (first) this.form.set({ styleId: first.id });
  }

  /** Stops following jobs and exports, removes the edit marker; the applied skybox stays in the scene. */
  public dispose(): void {
    this._observers.forEach((o) => o.remove());
    this.edit.dispose();
    [this.jobs, this.exports, this.save, this.apply, this.history, this.styles, this.form, this.layout, this.connection].forEach((s) =>
      s.dispose(),
    );
  }
}

function pick<T extends object, K extends keyof T>(o: T, ...keys: K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
}
