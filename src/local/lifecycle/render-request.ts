import { IMAGE_SIZES } from "../../api/reference.ts";
import { findStyle, variantsOf } from "../catalogue/styles.ts";
import type { RenderRequest, Size } from "../imagery/contract.ts";
import { generationDir } from "../records/files.ts";
import type { GenerationEntity } from "../store/entities.ts";
import type { RecordStore } from "../store/record-store.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** A spec size times `--image-scale`, even and at least 16 px tall. */
export function scaled(size: Size, scale: number): Size {
  const height = Math.max(16, Math.round((size.height * scale) / 2) * 2);
  return { width: height * (size.width / size.height), height };
}

/**
 * What the renderer needs for a stored generation. Sources of remix and edit are the
 * folders of earlier generations; `remix_collection_id` names one of the user's batches,
 * whose first completed skybox is the source.
 */
export function renderRequestOf(g: GenerationEntity, store: RecordStore, dataDir: string, imageScale: number): RenderRequest {
  const style = findStyle(g.styleId);
  if (!style) throw new Error(`style ${g.styleId} is no longer in the catalogue`);
  const variant = variantsOf(style).find((v) => v.id === g.variantId);
  const dir = generationDir(dataDir, g.obfuscatedId);
  const input = (name: string) => (g.inputs[name] ? new Uint8Array(readFileSync(join(dir, g.inputs[name]))) : undefined);
  const sourceDir = (id: number | null) => {
    const source = id == null ? undefined : store.generations.get(id);
    return source?.status === "complete" ? generationDir(dataDir, source.obfuscatedId) : undefined;
  };
  const collectionSource =
    g.remixCollectionId == null
      ? undefined
      : store.batches.get(g.remixCollectionId)?.generationIds.find((id) => store.generations.get(id)?.status === "complete");
  const initImage = input("init_image");
  const controlImage = input("control_image");
  const imageToPano = input("image_to_pano_init_image");
  const remixFrom = sourceDir(g.remixImagineId) ?? sourceDir(collectionSource ?? null);
  const editFrom = g.edit ? sourceDir(g.edit.skyboxId) : undefined;
  return {
    prompt: g.prompt,
    negativeText: g.negativeText,
    enhancePrompt: g.enhancePrompt,
    seed: g.seed,
    look: style.look,
    model: style.model,
    variant: variant ? (variant.name === "Enhanced" ? "enhanced" : "standard") : null,
    softLines: g.softLines,
    size: scaled(style.model === 4 ? IMAGE_SIZES.model4 : IMAGE_SIZES.model3, imageScale),
    thumbSize: scaled(IMAGE_SIZES.thumb, imageScale),
    depthSize: scaled(IMAGE_SIZES.depth, imageScale),
    ...(initImage ? { initImage: { bytes: initImage, strength: g.initStrength ?? 0.5 } } : {}),
    ...(controlImage && g.controlModel === "remix" ? { controlImage } : {}),
    ...(remixFrom ? { remixFrom } : {}),
    ...(g.edit && editFrom ? { edit: { from: editFrom, centerX: g.edit.centerX, centerY: g.edit.centerY, fov: g.edit.fov } } : {}),
    ...(imageToPano ? { imageToPano } : {}),
  };
}
