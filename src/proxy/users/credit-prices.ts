/**
 * What a generation or a batch costs, by the rules of src/api (Model 3, Model 4 by variant,
 * edit, image-to-pano; a batch is each of its items), read from the request's fields and
 * the upstream's styles. Styles are read through the proxy's own forwarding and kept for a
 * while; a style the upstream does not list is priced at the highest price (the upstream
 * will refuse it anyway).
 */
import { isPositiveInteger } from "../../api/rules/batch-rules.ts";
import { CREDIT_COSTS, generationCost, generationMode } from "../../api/rules/credits.ts";
import { styleModel } from "../../api/rules/style-info.ts";
import { Style } from "../../api/schemas/style.ts";
import { fieldOf, type RequestFields } from "./request-fields.ts";

const HIGHEST_PRICE = Math.max(...Object.values(CREDIT_COSTS));
const STYLES_TTL_MS = 10 * 60_000;
/** A style missing from the list makes it be read again, but not more often than this. */
const RELOAD_AFTER_MISS_MS = 30_000;

export class CreditPrices {
  private _styles = new Map<number, Style>();
  private _loadedAt = -Infinity;
  private _loading: Promise<void> | null = null;

  /** @param _loadStyles the upstream's styles of every model, as JSON lists */
  constructor(
    private readonly _loadStyles: () => Promise<unknown[]>,
    private readonly _now: () => number = Date.now,
  ) {}

  /** Credits the request costs: one generation, or `quantity` of them for a batch (0 when the quantity is not valid: the upstream refuses it). */
  async priceOf(fields: RequestFields, batch: boolean): Promise<number> {
    const each = await this._generationPrice(fields);
    if (!batch) return each;
    const quantity = fieldOf(fields, "quantity");
    return isPositiveInteger(quantity) ? Number(quantity) * each : 0;
  }

  private async _generationPrice(fields: RequestFields): Promise<number> {
    const mode = generationMode({
      edit_skybox_id: fieldOf(fields, "edit_skybox_id"),
      image_to_pano_init_image: fieldOf(fields, "image_to_pano_init_image"),
      image_to_pano_init_image_hash: fieldOf(fields, "image_to_pano_init_image_hash"),
    });
    if (mode !== "generate") return generationCost({ model: 4 }, mode);
    const style = await this._style(Number(fieldOf(fields, "skybox_style_id")));
    if (!style) return HIGHEST_PRICE;
    const variant = style.variants?.find((v) => v.id === Number(fieldOf(fields, "variant_id")));
    return generationCost({ model: styleModel(style) }, mode, variant?.name ?? null);
  }

  private async _style(id: number): Promise<Style | undefined> {
    const age = this._now() - this._loadedAt;
    if (age > STYLES_TTL_MS || (!this._styles.has(id) && age > RELOAD_AFTER_MISS_MS)) await this._reload();
    return this._styles.get(id);
  }

  private _reload(): Promise<void> {
    this._loading ??= this._loadStyles()
      .then((lists) => {
        const styles = lists
          .flatMap((list): unknown[] => (Array.isArray(list) ? list : []))
          .flatMap((s) => {
            const parsed = Style.safeParse(s);
            return parsed.success ? [parsed.data] : [];
          });
        if (styles.length) this._styles = new Map(styles.map((s) => [s.id, s]));
      })
      .catch(() => {
        // Keep what we knew; prices fall back to the highest.
      })
      .finally(() => {
        this._loadedAt = this._now();
        this._loading = null;
      });
    return this._loading;
  }
}
