import * as z from "zod";
import { flag, int, optionalText } from "./fields.ts";

export const StyleVariant = z.looseObject({
  id: int,
  name: z.string(),
  model: optionalText,
  description: optionalText,
});
export type StyleVariant = z.infer<typeof StyleVariant>;

/** The spec names a style's id and name skybox_style_id/skybox_style_name; real lists send id/name. */
function aliasStyleFields(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  const v = value as Record<string, unknown>;
  return { ...v, id: v.id ?? v.skybox_style_id, name: v.name ?? v.skybox_style_name };
}

export const Style = z.preprocess(
  aliasStyleFields,
  z.looseObject({
    id: int,
    name: z.string(),
    description: optionalText,
    "max-char": int.nullish(),
    "negative-text-max-char": int.nullish(),
    image: optionalText,
    image_jpg: optionalText,
    sort_order: int.nullish(),
    premium: flag.nullish(),
    new: flag.nullish(),
    experimental: flag.nullish(),
    status: optionalText,
    model: optionalText,
    model_version: z.union([z.string(), z.number()]).nullish().transform((v) => (v == null ? null : String(v))),
    skybox_style_families_id: int.nullish(),
    /** The families the style belongs to (a Unity SDK reads them). */
    skybox_style_families: z.array(z.looseObject({ id: int, name: z.string() })).nullish(),
    /** `style` inside `/skybox/families` and `/skybox/menu`. */
    type: optionalText,
    variants: z.array(StyleVariant).nullish(),
  }),
);
export type Style = z.infer<typeof Style>;

/** An entry of `/skybox/families`: a family grouping styles, or a lone style. */
export const StyleFamily = z.looseObject({
  type: z.string(),
  id: int,
  name: z.string(),
  sort_order: int.nullish(),
  items: z.array(Style).nullish().transform((v) => v ?? []),
});
export type StyleFamily = z.infer<typeof StyleFamily>;
