import { Observable } from "@babylonjs/core/Misc/observable.js";
import type { Generation, HistoryQuery, RequestStatus, SkyboxClient } from "../../api/index.ts";
import { describeError, type PaneError } from "../error-text.ts";
import { Slice } from "./slice.ts";

export interface HistoryFilters {
  /** Text searched in prompts and titles. */
  query: string;
  status: RequestStatus | null;
  styleId: number | null;
}

export interface HistoryValue extends HistoryFilters {
  /** The current page, newest first. */
  items: Generation[];
  totalCount: number;
  hasMore: boolean;
  /** Items before this page (the API's `offset` counts items). */
  offset: number;
  pageSize: number;
  loading: boolean;
  error: PaneError | null;
  /** Items with a request under way: id → what is being done. */
  busy: Readonly<Record<number, "deleting" | "cancelling">>;
}

/** An action on one generation of the history: what it shows while it runs, the request, the error's title. */
interface HistoryAction {
  busy: "deleting" | "cancelling";
  call: () => Promise<{ success?: boolean; error?: string | undefined }>;
  failure: string;
  /** Runs once the request succeeded, before the page is reloaded. */
  done?: () => void;
}

/** The account's generations, a page at a time, with search, status and style filters. */
export class HistoryState extends Slice<HistoryValue> {
  /** A generation was deleted (with its id), before the page is reloaded. */
  public readonly onDeletedObservable = new Observable<number>();
  private _request = 0;

  public constructor(
    private readonly _client: SkyboxClient,
    pageSize: number,
  ) {
    super({
      query: "",
      status: null,
      styleId: null,
      items: [],
      totalCount: 0,
      hasMore: false,
      offset: 0,
      pageSize,
      loading: false,
      error: null,
      busy: {},
    });
  }

  /** Loads the current page again. */
  public async refresh(): Promise<void> {
    const request = ++this._request;
    const v = this.value;
    const query: HistoryQuery = { limit: v.pageSize, offset: v.offset, order: "DESC" };
    if (v.query.trim()) query.query = v.query.trim();
    if (v.status) query.status = v.status;
    if (v.styleId != null) query.skybox_style_id = v.styleId;
    this._set({ loading: true });
    try {
      const page = await this._client.history(query);
      // An older request answering late must not replace a newer page.
      if (request !== this._request) return;
      this._set({ items: page.data, totalCount: page.totalCount, hasMore: page.has_more, loading: false, error: null });
    } catch (error) {
      if (request === this._request) this._set({ loading: false, error: describeError(error, "History could not be loaded") });
    }
  }

  /** Changes the filters and goes back to the first page. */
  public setFilters(patch: Partial<HistoryFilters>): Promise<void> {
    this._set({ ...patch, offset: 0 });
    return this.refresh();
  }

  /** The next page, when there is one. */
  public next(): Promise<void> {
    if (!this.value.hasMore) return Promise.resolve();
    this._set({ offset: this.value.offset + this.value.pageSize });
    return this.refresh();
  }

  /** The previous page, when there is one. */
  public previous(): Promise<void> {
    if (this.value.offset === 0) return Promise.resolve();
    this._set({ offset: Math.max(0, this.value.offset - this.value.pageSize) });
    return this.refresh();
  }

  /** Deletes a generation (the pane asks for confirmation first), then reloads the page. */
  public remove(id: number): Promise<void> {
    return this._act(id, {
      busy: "deleting",
      call: () => this._client.deleteGeneration(id),
      failure: "Delete failed",
      done: () => this.onDeletedObservable.notifyObservers(id),
    });
  }

  /** Cancels a generation still pending or processing. */
  public cancel(id: number): Promise<void> {
    return this._act(id, { busy: "cancelling", call: () => this._client.cancelGeneration(id), failure: "Cancel failed" });
  }

  private async _act(id: number, { busy, call, failure, done }: HistoryAction): Promise<void> {
    this._set({ busy: { ...this.value.busy, [id]: busy }, error: null });
    try {
      const result = await call();
      if (result.success === false) throw new Error(result.error ?? "The service said no");
      done?.();
      await this.refresh();
    } catch (error) {
      this._set({ error: describeError(error, failure) });
    } finally {
      const busy = { ...this.value.busy };
      delete busy[id];
      this._set({ busy });
    }
  }

  public override dispose(): void {
    this.onDeletedObservable.clear();
    super.dispose();
  }
}
