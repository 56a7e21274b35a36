import type { StyleInfo } from "./style-info.ts";

/** How a generation is made; edit and image-to-pano have their own prices. */
export type GenerationMode = "generate" | "edit" | "image-to-pano";

/**
 * Credits per generation (spec "Limits"): Model 3 1, Model 4 Standard 3, Edit 1,
 * Image2Pano 3. The Enhanced variant's cost is not shown; we charge 4 and document it.
 */
export const CREDIT_COSTS = { model3: 1, model4Standard: 3, model4Enhanced: 4, edit: 1, imageToPano: 3 } as const;

/** Names of the Model 4 variants; the variant's name decides its cost. */
export function isEnhancedVariant(name: string | null | undefined): boolean {
  return /enhanced/i.test(name ?? "");
}

/** Whether a request is a generation, an edit or an image-to-pano, from the fields it sets. */
export function generationMode(params: {
  edit_skybox_id?: unknown;
  image_to_pano_init_image?: unknown;
  image_to_pano_init_image_hash?: unknown;
}): GenerationMode {
  if (params.edit_skybox_id != null) return "edit";
  if (params.image_to_pano_init_image != null || params.image_to_pano_init_image_hash != null) return "image-to-pano";
  return "generate";
}

/** Credits one generation costs, from the style's model, the mode and the variant's name. */
export function generationCost(style: Pick<StyleInfo, "model">, mode: GenerationMode, variantName?: string | null): number {
  if (mode === "edit") return CREDIT_COSTS.edit;
  if (mode === "image-to-pano") return CREDIT_COSTS.imageToPano;
  if (style.model === 3) return CREDIT_COSTS.model3;
  return isEnhancedVariant(variantName) ? CREDIT_COSTS.model4Enhanced : CREDIT_COSTS.model4Standard;
}
