import { styleInfo, type StyleInfo } from "../../api/rules/style-info.ts";
import { Style } from "../../api/schemas/style.ts";
import { FAMILIES, STYLES, variantsOf, type CatalogueStyle } from "./styles.ts";

const familyOf = (style: CatalogueStyle) => FAMILIES.find((f) => f.id === style.familyId)!;

/** A style as the API returns it (the fields real clients read). */
export function styleJson(style: CatalogueStyle, baseUrl: string) {
  const preview = `${baseUrl}/files/styles/${style.id}.jpg`;
  return {
    id: style.id,
    name: style.name,
    description: style.description,
    "max-char": style.maxChar,
    "negative-text-max-char": style.negativeMaxChar,
    image: preview,
    image_jpg: preview,
    sort_order: style.sortOrder,
    premium: style.premium ? 1 : 0,
    new: style.isNew ? 1 : 0,
    experimental: style.experimental ? 1 : 0,
    status: "active",
    model: `Model ${style.model}`,
    model_version: String(style.model),
    skybox_style_families_id: style.familyId,
    skybox_style_families: [{ id: style.familyId, name: familyOf(style).name }],
    ...(style.model === 4 ? { variants: variantsOf(style).map((v) => ({ ...v, model: "Model 4" })) } : {}),
  };
}

/** Styles of one model (none for a model without styles, such as the discontinued Model 2), or all, in menu order. */
export function stylesOf(model: number | null): CatalogueStyle[] {
  return STYLES.filter((s) => model === null || s.model === model).toSorted((a, b) => a.familyId - b.familyId || a.sortOrder - b.sortOrder);
}

/** `/skybox/families` (and `/skybox/menu`): families with their styles, each item of type `style`. */
export function familiesJson(model: number | null, baseUrl: string) {
  const styles = stylesOf(model);
  return FAMILIES.filter((f) => styles.some((s) => s.familyId === f.id))
    .toSorted((a, b) => a.sortOrder - b.sortOrder)
    .map((f) => ({
      type: "family",
      id: f.id,
      name: f.name,
      sort_order: f.sortOrder,
      items: styles.filter((s) => s.familyId === f.id).map((s) => ({ type: "style", ...styleJson(s, baseUrl) })),
    }));
}

/** The rules' view of a catalogue style, through the same schema clients use. */
export function catalogueStyleInfo(style: CatalogueStyle): StyleInfo {
  return styleInfo(Style.parse(styleJson(style, "")));
}
