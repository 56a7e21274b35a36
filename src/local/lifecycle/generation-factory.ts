import { join } from "node:path";
import type { ParsedGenerateParams } from "../../api/requests/generate-params.ts";
import { generationCost, generationMode } from "../../api/rules/credits.ts";
import { issue } from "../../api/rules/rule-issue.ts";
import { variantsOf, type CatalogueStyle } from "../catalogue/styles.ts";
import { brokenRules, DomainError, notFound } from "../records/domain-error.ts";
import { generationDir } from "../records/files.ts";
import type { Uploads } from "../records/uploads.ts";
import type { Account } from "../store/accounts.ts";
import { writeAtomically } from "../store/durable-files.ts";
import type { GenerationEntity } from "../store/entities.ts";
import { hashId, offsetTimestamp, type RecordStore } from "../store/record-store.ts";

const IMAGE_FIELDS = ["init_image", "control_image", "image_to_pano_init_image"] as const;

export interface NewGeneration {
  account: Account;
  params: ParsedGenerateParams;
  style: CatalogueStyle;
  batchId?: number;
  /** Seed to use when the request has none (batches vary it per item). */
  seed?: number;
}

/** The price of a request, before anything is created. */
export function priceOf(params: ParsedGenerateParams, style: CatalogueStyle): number {
  const variant = variantsOf(style).find((v) => v.id === params.variant_id);
  return generationCost({ model: style.model }, generationMode(params), variant?.name);
}

/**
 * Builds a generation entity from checked parameters: sources of edit and remix must be
 * the caller's own, input images are stored with it. Credits are charged by the caller.
 */
export function buildGeneration(store: RecordStore, dataDir: string, uploads: Uploads, n: NewGeneration): GenerationEntity {
  const { account, params: p, style } = n;
  const own = (id: number | null | undefined, field: string) => {
    if (id == null) return null;
    const g = store.generations.get(id);
    if (!g || g.accountId !== account.id || g.deleted) throw notFound(`${field}: skybox ${id} not found`);
    return g;
  };
  const editSource = own(p.edit_skybox_id, "edit_skybox_id");
  if (editSource && editSource.status !== "complete")
    throw brokenRules([issue("edit_skybox_id", "edit-source-complete", "must be a completed skybox")]);
  own(p.remix_imagine_id, "remix_imagine_id");
  if (p.remix_collection_id != null) {
    const batch = store.batches.get(p.remix_collection_id);
    if (!batch || batch.accountId !== account.id) throw notFound(`remix_collection_id: collection ${p.remix_collection_id} not found`);
  }
  const images = IMAGE_FIELDS.map((f) => [f, uploads.resolve(f, p[f], p[`${f}_hash`])] as const);
  const id = store.nextGenerationId();
  const obfuscatedId = hashId();
  const dir = generationDir(dataDir, obfuscatedId);
  const inputs: Record<string, string> = {};
  for (const [field, bytes] of images) {
    if (!bytes) continue;
    writeAtomically(join(dir, `input-${field}`), bytes);
    inputs[field] = `input-${field}`;
  }
  const now = offsetTimestamp();
  return {
    id,
    obfuscatedId,
    accountId: account.id,
    status: "pending",
    prompt: p.prompt,
    enhancePrompt: p.enhance_prompt ?? false,
    enhancedPrompt: null,
    negativeText: p.negative_text ?? null,
    seed: p.seed ?? n.seed ?? Math.floor(Math.random() * 2_147_483_647),
    styleId: style.id,
    variantId: p.variant_id ?? null,
    mode: generationMode(p),
    softLines: p.soft_lines ?? false,
    webhookUrl: p.webhook_url ?? null,
    batchId: n.batchId ?? null,
    remixImagineId: p.remix_imagine_id ?? null,
    remixCollectionId: p.remix_collection_id ?? null,
    initStrength: p.init_strength ?? null,
    controlModel: p.control_model ?? null,
    edit: editSource ? { skyboxId: editSource.id, centerX: p.center_x ?? 0, centerY: p.center_y ?? 0, fov: p.fov ?? 60 } : null,
    inputs,
    cost: priceOf(p, style),
    favorite: false,
    errorMessage: null,
    createdAt: now,
    updatedAt: now,
    dispatchedAt: null,
    processingAt: null,
    completedAt: null,
    deleted: false,
  };
}

/** "You have N credits remaining. This generation requires M credits." (answered 422). */
export function insufficientCredits(account: Account, required: number): DomainError {
  return new DomainError(
    "insufficient-credits",
    `You have ${account.credits} credits remaining. This generation requires ${required} credits.`,
  );
}
