import { checkModel4Plan, styleModel, type Plan, type SkyboxClient, type Style, type StyleFamily } from "../../../api/index.ts";
import { describeError, type PaneError } from "../../error-text.ts";
import { Slice } from "../slice.ts";

export type ModelVersion = 3 | 4;

export interface StylesValue {
  /** Families of each model, as GET /skybox/families?model_version=N returned them (disabled styles left out). */
  families: Record<ModelVersion, StyleFamily[]>;
  loading: boolean;
  error: PaneError | null;
  /** Why Model 4 cannot be used, or null when it can (or is not known not to). */
  model4Blocked: string | null;
}

/** Reason shown when the plan given to the pane has no Model 4. */
export function model4ReasonForPlan(plan: Plan | null | undefined): string | null {
  const [refused] = plan ? checkModel4Plan(plan) : [];
  return refused ? `${refused.message} (this account is on ${plan}).` : null;
}

const usable = (families: StyleFamily[]): StyleFamily[] =>
  families.map((f) => ({ ...f, items: f.items.filter((s) => s.status !== "disabled") })).filter((f) => f.items.length > 0);

/** The style menu: families of both models, loaded once, and whether Model 4 is allowed. */
export class StylesState extends Slice<StylesValue> {
  private _loading: Promise<void> | null = null;

  public constructor(
    private readonly _client: SkyboxClient,
    plan: Plan | null,
  ) {
    super({ families: { 3: [], 4: [] }, loading: false, error: null, model4Blocked: model4ReasonForPlan(plan) });
  }

  /** Loads both menus (once; again after a failure). */
  public load(): Promise<void> {
    if (this._loading && !this.value.error) return this._loading;
    this._set({ loading: true, error: null });
    this._loading = Promise.all([this._client.families({ model_version: 3 }), this._client.families({ model_version: 4 })]).then(
      ([m3, m4]) => this._set({ families: { 3: usable(m3), 4: usable(m4) }, loading: false }),
      (error) => this._set({ loading: false, error: describeError(error, "Styles could not be loaded") }),
    );
    return this._loading;
  }

  /** Every style of both models. */
  public get all(): Style[] {
    return [...this.value.families[3], ...this.value.families[4]].flatMap((f) => f.items);
  }

  /** A style by id, from the loaded menus. */
  public byId(id: number | null | undefined): Style | undefined {
    return id == null ? undefined : this.all.find((s) => s.id === id);
  }

  /** The model of a style by id (3 when unknown). */
  public modelOf(id: number | null | undefined): ModelVersion {
    const style = this.byId(id);
    return style ? styleModel(style) : 3;
  }

  /**
   * Marks Model 4 unavailable, with the reason the service gave (a 403 answer).
   * @param reason the server's words
   */
  public blockModel4(reason: string): void {
    this._set({ model4Blocked: reason });
  }
}
