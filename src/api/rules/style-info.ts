import type { Style } from "../schemas/style.ts";

/** What the rules need to know of a style. */
export interface StyleInfo {
  id: number;
  model: 3 | 4;
  variantIds: number[];
  /** Maximum prompt length, when the style states one. */
  promptMax: number | null;
  /** Maximum negative_text length, when the style states one. */
  negativeMax: number | null;
}

/** Model of a style: `model_version` ("4") or `model` ("Model 4"); Model 3 otherwise. */
export function styleModel(style: Pick<Style, "model" | "model_version">): 3 | 4 {
  const label = `${style.model_version ?? ""} ${style.model ?? ""}`;
  return /\b4\b/.test(label) ? 4 : 3;
}

/** What the rules need of a style record: its id, model and text limits. */
export function styleInfo(style: Style): StyleInfo {
  return {
    id: style.id,
    model: styleModel(style),
    variantIds: (style.variants ?? []).map((v) => v.id),
    promptMax: style["max-char"] ?? null,
    negativeMax: style["negative-text-max-char"] ?? null,
  };
}
