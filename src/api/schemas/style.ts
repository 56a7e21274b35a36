import * as z from "zod/mini";
import { flag, int, optionalText } from "./fields.ts";

/** The schema of a Model 4 style's variant (Standard, Enhanced). */
export const StyleVariant = z.looseObject({
  id: int,
  name: z.string(),
  model: optionalText,
  description: optionalText,
});
/** A Model 4 style's variant: its id and name decide the price. */
export type StyleVariant = z.infer<typeof StyleVariant>;

/** The spec names a style's id and name skybox_style_id/skybox_style_name; real lists send id/name. */
function aliasStyleFields(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  const v = value as Record<string, unknown>;
  return { ...v, id: v.id ?? v.skybox_style_id, name: v.name ?? v.skybox_style_name };
}

/** The schema of a style, as `/skybox/styles` lists it (the spec's and the real service's field names alike). */
export const Style = z.pipe(
  z.transform(aliasStyleFields),
  z.looseObject({
    id: int,
    name: z.string(),
    description: optionalText,
    "max-char": z.nullish(int),
    "negative-text-max-char": z.nullish(int),
    image: optionalText,
    image_jpg: optionalText,
    sort_order: z.nullish(int),
    premium: z.nullish(flag),
    new: z.nullish(flag),
    experimental: z.nullish(flag),
    status: optionalText,
    model: optionalText,
    model_version: z.pipe(
      z.nullish(z.union([z.string(), z.number()])),
      z.transform((v) => (v == null ? null : String(v))),
    ),
    skybox_style_families_id: z.nullish(int),
    /** The families the style belongs to (a Unity SDK reads them). */
    skybox_style_families: z.nullish(z.array(z.looseObject({ id: int, name: z.string() }))),
    /** `style` inside `/skybox/families` and `/skybox/menu`. */
    type: optionalText,
    variants: z.nullish(z.array(StyleVariant)),
  }),
);
/** A skybox style: id, name, model, text limits, variants and preview. */
export type Style = z.infer<typeof Style>;

/** An entry of `/skybox/families`: a family grouping styles, or a lone style. */
export const StyleFamily = z.looseObject({
  type: z.string(),
  id: int,
  name: z.string(),
  sort_order: z.nullish(int),
  items: z.pipe(
    z.nullish(z.array(Style)),
    z.transform((v) => v ?? []),
  ),
});
export type StyleFamily = z.infer<typeof StyleFamily>;
