import { isRequestTerminal, recordModel, type ExportRecord, type ExportType, type Generation } from "../../../api/index.ts";
import { exportParams, loadExportCatalog, type ExportCatalog } from "../../../scene/exports/export-catalog.ts";
import type { ExportChoice } from "../../../scene/exports/part-exports.ts";
import type { ExportUpdate } from "../../../status/index.ts";
import { describeEnded, describeError, type PaneError } from "../../error-text.ts";
import type { ConnectionState } from "../connection-state.ts";
import { DEFAULT_EXPORT_CHOICE, normalizeChoice, typesFor } from "./export-form.ts";
import { Slice } from "../slice.ts";
import { Watches } from "../jobs/watches.ts";

/** One export request and how far it got. */
export interface ExportJob {
  id: string;
  typeName: string;
  skyboxTitle: string;
  status: string;
  queuePosition: number | null;
  /** The file, once complete (a same-origin URL through the proxy). */
  fileUrl: string;
  startedAt: number;
  endedAt: number | null;
  error: PaneError | null;
}

export interface ExportValue extends ExportChoice {
  /** The skybox to export. */
  target: Generation | null;
  /** The service's export lists, read as the scene reads them (ids are looked up by key); null before they loaded. */
  catalog: ExportCatalog | null;
  /** Newest first. */
  jobs: ExportJob[];
  submitting: boolean;
  error: PaneError | null;
}

/** The Export section: what to export, with which options, and the requests under way. */
export class ExportState extends Slice<ExportValue> {
  private readonly _watches: Watches;
  private _catalog: Promise<ExportCatalog> | null = null;

  public constructor(private readonly _connection: ConnectionState) {
    super({ ...DEFAULT_EXPORT_CHOICE, target: null, catalog: null, jobs: [], submitting: false, error: null });
    this._watches = new Watches(() => _connection.tracker());
  }

  /** Loads the service's export lists once (the scene's catalogue: the spec's list stands in for any that fails). */
  public loadTypes(): Promise<ExportCatalog> {
    this._catalog ??= loadExportCatalog(this._connection.client).then((catalog) => {
      this._set({ catalog });
      return catalog;
    });
    return this._catalog;
  }

  /** The types offered for the target's model. */
  public get offeredTypes(): ExportType[] {
    return typesFor(this._model(), this.value.catalog?.types ?? null);
  }

  /** Chooses the skybox to export; options it does not allow are reset. */
  public setTarget(target: Generation | null): void {
    this._set({ target, ...normalizeChoice(this.value, target ? recordModel(target) : 3) });
  }

  /** Changes the type or an option; options the type does not allow are dropped. */
  public choose(patch: Partial<ExportChoice>): void {
    this._set(normalizeChoice({ ...this.value, ...patch }, this._model()));
  }

  /** Requests the export and follows it until its file is ready. */
  public async request(): Promise<ExportRecord | null> {
    const target = this.value.target;
    if (!target) return null;
    this._set({ submitting: true, error: null });
    try {
      const catalog = await this.loadTypes();
      const params = exportParams(target.obfuscated_id, this.value, catalog);
      const record = await this._connection.client.requestExport(params, { model: recordModel(target), types: catalog.types });
      const typeName = this.offeredTypes.find((t) => t.key === this.value.typeKey)?.name ?? this.value.typeKey;
      this._set({ jobs: [jobOf(record, typeName, target), ...this.value.jobs].slice(0, 10) });
      void this._follow(record);
      return record;
    } catch (error) {
      this._set({ error: describeError(error, "Export could not start") });
      return null;
    } finally {
      this._set({ submitting: false });
    }
  }

  private _follow(record: ExportRecord): Promise<void> {
    return this._watches.follow(
      record.id,
      (tracker) => tracker.watchExport(record, { onUpdate: (u) => this._update(record.id, u) }),
      (error) => this._patch(record.id, { error: describeError(error, "Lost track of the export"), endedAt: Date.now() }),
    );
  }

  private _update(id: string, u: ExportUpdate): void {
    const ended = isRequestTerminal(u.status);
    const failed = u.status === "error" || u.status === "abort";
    this._patch(id, {
      status: u.status,
      queuePosition: u.queuePosition,
      fileUrl: u.record.file_url,
      ...(ended ? { endedAt: Date.now() } : {}),
      ...(failed ? { error: describeEnded(u.status, u.record.error_message, "Export") } : {}),
    });
  }

  private _patch(id: string, patch: Partial<ExportJob>): void {
    this._set({ jobs: this.value.jobs.map((j) => (j.id === id ? { ...j, ...patch } : j)) });
  }

  private _model(): 3 | 4 {
    return this.value.target ? recordModel(this.value.target) : 3;
  }

  public override dispose(): void {
    this._watches.stopAll();
    super.dispose();
  }
}

function jobOf(record: ExportRecord, typeName: string, target: Generation): ExportJob {
  const ended = isRequestTerminal(record.status);
  return {
    id: record.id,
    typeName,
    skyboxTitle: target.title || `#${target.id}`,
    status: record.status,
    queuePosition: record.queue_position ?? null,
    fileUrl: record.file_url,
    startedAt: Date.now(),
    endedAt: ended ? Date.now() : null,
    error: null,
  };
}
