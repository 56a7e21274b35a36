import * as z from "zod";
import { REQUEST_STATUSES } from "../../api/protocol/statuses.ts";

/** What the local service stores of a generation (records are built from it on demand). */
export const GenerationEntity = z.object({
  id: z.number().int(),
  obfuscatedId: z.string(),
  accountId: z.number().int(),
  status: z.enum(REQUEST_STATUSES),
  prompt: z.string(),
  enhancePrompt: z.boolean(),
  enhancedPrompt: z.string().nullable(),
  negativeText: z.string().nullable(),
  seed: z.number().int(),
  styleId: z.number().int(),
  variantId: z.number().int().nullable(),
  mode: z.enum(["generate", "edit", "image-to-pano"]),
  softLines: z.boolean(),
  webhookUrl: z.string().nullable(),
  batchId: z.number().int().nullable(),
  remixImagineId: z.number().int().nullable(),
  remixCollectionId: z.number().int().nullable(),
  initStrength: z.number().nullable(),
  controlModel: z.string().nullable(),
  edit: z.object({ skyboxId: z.number().int(), centerX: z.number(), centerY: z.number(), fov: z.number() }).nullable(),
  /** Input images saved in the generation's folder, by parameter. */
  inputs: z.record(z.string(), z.string()),
  cost: z.number(),
  favorite: z.boolean(),
  errorMessage: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  dispatchedAt: z.string().nullable(),
  processingAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  /** Soft-deleted generations keep their id taken but leave every list. */
  deleted: z.boolean().default(false),
});
export type GenerationEntity = z.infer<typeof GenerationEntity>;

export const ExportEntity = z.object({
  id: z.string(),
  accountId: z.number().int(),
  generationId: z.number().int(),
  typeId: z.number().int(),
  typeKey: z.string(),
  resolutionId: z.number().int().nullable(),
  meshQualityId: z.number().int().nullable(),
  hdriModeId: z.number().int().nullable(),
  depthScale: z.number().nullable(),
  status: z.enum(REQUEST_STATUSES),
  errorMessage: z.string().nullable(),
  webhookUrl: z.string().nullable(),
  /** Path of the file below the data directory, once written. */
  file: z.string().nullable(),
  /** Identical exports (same skybox and options) share this key and their file. */
  cacheKey: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ExportEntity = z.infer<typeof ExportEntity>;

export const SubmissionErrorEntity = z.object({ index: z.number().int(), message: z.string(), status: z.number().int() });

export const BatchEntity = z.object({
  id: z.number().int(),
  obfuscatedId: z.string(),
  accountId: z.number().int(),
  quantity: z.number().int(),
  generationIds: z.array(z.number().int()),
  submissionErrors: z.array(SubmissionErrorEntity),
  webhookUrl: z.string().nullable(),
  /** Last status and counters sent as an event, to send only changes. */
  lastEvent: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type BatchEntity = z.infer<typeof BatchEntity>;
