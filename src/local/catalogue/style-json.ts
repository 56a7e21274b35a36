import { styleInfo, type StyleInfo } from "../../api/rules/style-info.ts";
import { Style } from "../../api/schemas/style.ts";
import { FAMILIES, STYLES, variantsOf, type CatalogueStyle } from "./styles.ts";

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
    ...(style.model === 4 ? { variants: variantsOf(style).map((v) => ({ ...v, model: "Model 4" })) } : {}),
  };
}

/** Styles of one model, or all, in menu order. */
export function stylesOf(model: 3 | 4 | null): CatalogueStyle[] {
  return STYLES.filter((s) => model === null || s.model === model).toSorted((a, b) => a.familyId - b.familyId || a.sortOrder - b.sortOrder);
}

/** `/skybox/families`: families with their styles. */
export function familiesJson(model: 3 | 4 | null, baseUrl: string) {
  const styles = stylesOf(model);
  return FAMILIES.filter((f) => styles.some((s) => s.familyId === f.id))
    .toSorted((a, b) => a.sortOrder - b.sortOrder)
    .map((f) => ({
      type: "family",
      id: f.id,
      name: f.name,
      sort_order: f.sortOrder,
      items: styles.filter((s) => s.familyId === f.id).map((s) => styleJson(s, baseUrl)),
    }));
}

/** The rules' view of a catalogue style, through the same schema clients use. */
export function catalogueStyleInfo(style: CatalogueStyle): StyleInfo {
  return styleInfo(Style.parse(styleJson(style, "")));
}
