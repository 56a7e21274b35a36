import { batchChannel, exportChannel, generationChannel, PUSH_EVENT } from "../../api/protocol/channels.ts";
import { EXPORT_RESOLUTIONS, EXPORT_TYPES, HDRI_MODES, MESH_QUALITIES } from "../../api/reference.ts";
import { findStyle, variantsOf } from "../catalogue/styles.ts";
import { STORED_FILES } from "../imagery/contract.ts";
import type { Accounts } from "../store/accounts.ts";
import type { BatchEntity, ExportEntity, GenerationEntity } from "../store/entities.ts";
import { microTimestamp, type RecordStore } from "../store/record-store.ts";
import { deriveBatch } from "./batch-state.ts";
import { fileUrl, generationFileUrl } from "./files.ts";

/** Title of a generation: `<label> #<id>`, the label from the prompt's first words. */
export function titleOf(g: Pick<GenerationEntity, "id" | "prompt">): string {
  const words = g.prompt
    .replace(/[^\p{L}\p{N}\s]/gu, " ")
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 4);
  const label = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join(" ") || "Skybox";
  return `${label} #${g.id}`;
}

/**
 * When a generation reached each stage, present only once it did: the real service leaves
 * them out of a pending record, and typed clients (.NET, Unity) model them as non-nullable
 * timestamps, so a `null` would break their parsing where an absent field does not.
 */
function stageTimes(g: Pick<GenerationEntity, "dispatchedAt" | "processingAt" | "completedAt">) {
  return {
    ...(g.dispatchedAt ? { dispatched_at: g.dispatchedAt } : {}),
    ...(g.processingAt ? { processing_at: g.processingAt } : {}),
    ...(g.completedAt ? { completed_at: g.completedAt } : {}),
  };
}

/**
 * Builds the JSON records the API returns from stored entities. Everything that can be
 * derived (URLs, titles, batch counters, queue positions) is derived here, never stored.
 */
export class RecordViews {
  private readonly _store: RecordStore;
  private readonly _accounts: Accounts;
  private readonly _queuePosition: (kind: "generation" | "export", id: number | string) => number;
  /** The service's own URL, known once it listens. */
  readonly baseUrl: () => string;

  constructor(sources: {
    store: RecordStore;
    accounts: Accounts;
    queuePosition: (kind: "generation" | "export", id: number | string) => number;
    baseUrl: () => string;
  }) {
    this._store = sources.store;
    this._accounts = sources.accounts;
    this._queuePosition = sources.queuePosition;
    this.baseUrl = sources.baseUrl;
  }

  generation(g: GenerationEntity) {
    const style = findStyle(g.styleId);
    const variant = style ? variantsOf(style).find((v) => v.id === g.variantId) : undefined;
    const complete = g.status === "complete";
    const base = this.baseUrl();
    const remix = g.remixImagineId != null ? this._store.generations.get(g.remixImagineId) : undefined;
    return {
      id: g.id,
      obfuscated_id: g.obfuscatedId,
      user_id: g.accountId,
      username: this._accounts.byId(g.accountId)?.username ?? "unknown",
      status: g.status,
      queue_position: this._queuePosition("generation", g.id),
      pusher_channel: generationChannel(g.obfuscatedId),
      pusher_event: PUSH_EVENT,
      error_message: g.errorMessage,
      type: "skybox",
      title: titleOf(g),
      prompt: g.prompt,
      enhanced_prompt: g.enhancedPrompt,
      negative_text: g.negativeText,
      seed: g.seed,
      skybox_style_id: g.styleId,
      skybox_style_name: style?.name ?? "",
      skybox_id: g.styleId,
      skybox_name: style?.name ?? "",
      variant_id: g.variantId,
      variant_name: variant?.name ?? null,
      model: `Model ${style?.model ?? 3}`,
      file_url: complete ? generationFileUrl(base, g.obfuscatedId, STORED_FILES.image) : "",
      thumb_url: complete ? generationFileUrl(base, g.obfuscatedId, STORED_FILES.thumb) : "",
      depth_map_url: complete ? generationFileUrl(base, g.obfuscatedId, STORED_FILES.depth) : "",
      remix_imagine_id: g.remixImagineId,
      remix_obfuscated_id: remix?.obfuscatedId ?? null,
      isMyFavorite: g.favorite,
      api_key_id: this._accounts.byId(g.accountId)?.apiKeyId ?? null,
      soft_lines: g.softLines,
      batch_id: g.batchId,
      cost: g.cost,
      created_at: g.createdAt,
      updated_at: g.updatedAt,
      ...stageTimes(g),
      exports: this.exportsOf(g.id),
    };
  }

  /** Completed exports of a skybox, as `{ type key: file URL }`. */
  private exportsOf(generationId: number): Record<string, string> {
    const out: Record<string, string> = {};
    for (const e of this._store.exports.values())
      if (e.generationId === generationId && e.status === "complete" && e.file) out[e.typeKey] = fileUrl(this.baseUrl(), e.file);
    return out;
  }

  exportRecord(e: ExportEntity) {
    const g = this._store.generations.get(e.generationId);
    const type = EXPORT_TYPES.find((t) => t.id === e.typeId);
    return {
      id: e.id,
      skybox_id: e.generationId,
      skybox_obfuscated_id: g?.obfuscatedId ?? null,
      skybox_title: g ? titleOf(g) : null,
      type: type?.key ?? e.typeKey,
      type_id: e.typeId,
      resolution: EXPORT_RESOLUTIONS.find((r) => r.id === e.resolutionId)?.name ?? null,
      resolution_id: e.resolutionId,
      mesh_quality: MESH_QUALITIES.find((m) => m.id === e.meshQualityId)?.key ?? null,
      mesh_quality_id: e.meshQualityId,
      hdri_mode: HDRI_MODES.find((m) => m.id === e.hdriModeId)?.key ?? null,
      hdri_mode_id: e.hdriModeId,
      depth_scale: e.depthScale,
      status: e.status,
      queue_position: this._queuePosition("export", e.id),
      error_message: e.errorMessage,
      pusher_channel: exportChannel(e.id),
      pusher_event: PUSH_EVENT,
      webhook_url: e.webhookUrl,
      file_url: e.status === "complete" && e.file ? fileUrl(this.baseUrl(), e.file) : "",
      created_at: e.createdAt,
      updated_at: e.updatedAt,
    };
  }

  batch(b: BatchEntity, withGenerations: boolean) {
    const generations = b.generationIds.map((id) => this._store.generations.get(id)).filter((g) => g !== undefined);
    const derived = deriveBatch(b, generations);
    return {
      id: b.id,
      obfuscated_id: b.obfuscatedId,
      user_id: b.accountId,
      status: derived.status,
      quantity: b.quantity,
      successfully_submitted: b.generationIds.length,
      completed: derived.completed,
      errored: derived.errored,
      aborted: derived.aborted,
      pusher_channel: batchChannel(b.obfuscatedId),
      pusher_event: PUSH_EVENT,
      webhook_url: b.webhookUrl,
      submission_errors: b.submissionErrors,
      created_at: b.createdAt,
      updated_at: b.updatedAt,
      ...(withGenerations ? { generations: generations.map((g) => this.generation(g)) } : {}),
    };
  }
}

export { microTimestamp };
