import { SaveToProjectAnswer, SaveToProjectMeta, slugOf, SLUG_PATTERN } from "../../api/saved/save-request.ts";
import { savedIdentity } from "../../api/saved/saved-identity.ts";
import type { AppliedSkybox } from "../../scene/index.ts";
import { collectSavedContents, type SaveProgress } from "../../scene/saved/saved-contents.ts";
import type { PaneError } from "../error-text.ts";
import type { ApplyState } from "./apply/apply-state.ts";
import type { ConnectionState } from "./connection-state.ts";
import { Slice } from "./slice.ts";

/** One step of a save in progress: a file collected in the browser, then the folder written by the dev server. */
export interface SaveStep {
  /** What it works on: an export ("3d-mesh-glb medium"), "panorama", "environment (.env)", or the folder written. */
  label: string;
  stage: SaveProgress["stage"] | "writing";
  /** The part an export is requested or downloaded for. */
  part?: SaveProgress["part"];
  /** 0..1 when known. */
  fraction?: number;
  /** The size sent, for "writing". */
  bytes?: number;
}

export interface SaveValue {
  /** The folder's name under the plugin's folder (public/skyboxes/ by default). */
  slug: string;
  /** Save the source `.hdr` beside the baked `.env`. */
  includeHdr: boolean;
  /** Widest the saved background may be. */
  backgroundWidth: number;
  backgroundFormat: "jpeg" | "webp";
  saving: boolean;
  /** The steps of the save in progress, in the order they started (empty when none runs). */
  steps: readonly SaveStep[];
  /** The folder that exists already: the pane asks before replacing it. */
  exists: string | null;
  /** The last save: where it went and the line that loads it. */
  saved: SaveToProjectAnswer | null;
  error: PaneError | null;
}

/**
 * "Save to project": writes the skybox in the scene, with its Apply settings, into the app's
 * public folder through the Vite dev server's route (see src/api/saved/save-request.ts). The
 * route exists only in the dev server; `/config` names it, and the pane hides the action
 * where it does not.
 */
export class SaveState extends Slice<SaveValue> {
  private _abort: AbortController | null = null;

  public constructor(
    private readonly _connection: ConnectionState,
    private readonly _apply: ApplyState,
    private readonly _fetch: typeof fetch = (...a) => globalThis.fetch(...a),
  ) {
    super({
      slug: "",
      includeHdr: false,
      backgroundWidth: 4096,
      backgroundFormat: "jpeg",
      saving: false,
      steps: [],
      exists: null,
      saved: null,
      error: null,
    });
    _apply.onAppliedObservable.add(
      (h) => h && this._set({ slug: slugOf(h.record.title, h.record.id), exists: null, saved: null, error: null }),
    );
  }

  /** The route, when the dev server has one. */
  public get route(): string | null {
    return this._connection.value.saveToProject;
  }

  /** Why the slug cannot be saved to, or null. */
  public get slugProblem(): string | null {
    return SLUG_PATTERN.test(this.value.slug) ? null : "lowercase letters, digits and dashes only";
  }

  public setOptions(patch: Partial<Pick<SaveValue, "slug" | "includeHdr" | "backgroundWidth" | "backgroundFormat">>): void {
    this._set({ ...patch, exists: null, error: null });
  }

  /**
   * Saves the applied skybox.
   * @param overwrite replace the folder when it exists (the pane asks first)
   * @returns the answer, or null when nothing was written (it exists, it failed, it was stopped)
   */
  public async save(overwrite = false): Promise<SaveToProjectAnswer | null> {
    const handle = this._apply.handle;
    const route = this.route;
    if (!handle || !route) return null;
    this._abort?.abort();
    const abort = (this._abort = new AbortController());
    this._set({ saving: true, steps: [], exists: null, error: null, saved: null });
    try {
      const form = await this._form(handle, overwrite, abort.signal);
      const folder = [this._connection.value.saveToProjectFolder, this.value.slug].filter(Boolean).join("/");
      this._step({ label: `${folder}/`, stage: "writing", bytes: formBytes(form) });
      const response = await this._fetch(route, { method: "POST", body: form, signal: abort.signal });
      const body = (await response.json().catch(() => ({}))) as { error?: string; folder?: string };
      if (response.status === 409) {
        this._set({ saving: false, steps: [], exists: body.folder ?? this.value.slug });
        return null;
      }
      if (!response.ok) throw new Error(body.error ?? `${route} answered ${response.status}`);
      const saved = SaveToProjectAnswer.parse(body);
      this._set({ saving: false, steps: [], saved });
      return saved;
    } catch (error) {
      if (!abort.signal.aborted)
        this._set({
          saving: false,
          steps: [],
          error: {
            title: "Save failed",
            message: "The skybox could not be saved into the project; nothing was written.",
            serverMessage: (error as Error).message,
            kind: "scene",
            status: 0,
          },
        });
      return null;
    }
  }

  private async _form(handle: AppliedSkybox, overwrite: boolean, signal: AbortSignal): Promise<FormData> {
    const a = this._apply.value;
    const v = this.value;
    // The backdrop saved is the one shown: built with the settings of the last apply.
    const backdrop = this._apply.builtBackdrop;
    const contents = await collectSavedContents(handle, {
      client: this._connection.client,
      tracker: await this._connection.tracker(),
      hdr: v.includeHdr ? { hdriMode: a.hdriMode, resolution: a.resolution === "auto" ? null : a.resolution } : null,
      backdrop,
      signal,
      onProgress: ({ detail, stage, part, fraction }) =>
        this._step({ label: detail ?? stage, stage, ...(part ? { part } : {}), ...(fraction !== undefined ? { fraction } : {}) }),
    });
    const skybox = savedIdentity(handle.record, contents.model);
    const meta: SaveToProjectMeta = SaveToProjectMeta.parse({
      slug: v.slug,
      overwrite,
      skybox,
      settings: { rotation: this._apply.rotation, intensity: a.intensity, backgroundBlur: a.blur, backdrop: contents.backdrop && backdrop },
      sun: a.sun ? contents.sun : null,
      background: { width: v.backgroundWidth, format: v.backgroundFormat },
    });
    const form = new FormData();
    form.set("meta", JSON.stringify(meta));
    form.set("environment", new Blob([contents.env as BlobPart]), "environment.env");
    form.set("panorama", new Blob([contents.panorama as BlobPart]), "panorama");
    if (contents.hdr) form.set("hdr", new Blob([contents.hdr as BlobPart]), "environment.hdr");
    if (contents.backdrop) form.set("backdrop", new Blob([contents.backdrop.bytes as BlobPart]), contents.backdrop.format);
    return form;
  }

  /** Records a step's news: a new label is appended, a known one is updated in place. */
  private _step(step: SaveStep): void {
    if (!this.value.saving) return;
    const steps = this.value.steps.filter((s) => s.label !== step.label);
    const at = this.value.steps.findIndex((s) => s.label === step.label);
    steps.splice(at < 0 ? steps.length : at, 0, step);
    this._set({ steps });
  }

  public override dispose(): void {
    this._abort?.abort();
    super.dispose();
  }
}

/** Bytes of the files in a form (what the save sends). */
function formBytes(form: FormData): number {
  let total = 0;
  for (const [, value] of form) total += typeof value === "string" ? value.length : value.size;
  return total;
}
