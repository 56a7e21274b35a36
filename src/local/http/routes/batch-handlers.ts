import { BatchParams, SEED_MAX } from "../../../api/requests/generate-params.ts";
import type { Context } from "hono";
import { BatchListQuery, matchesStatus } from "../../../api/requests/list-queries.ts";
import { checkBatch } from "../../../api/rules/batch-rules.ts";
import { checkGeneration } from "../../../api/rules/generation-rules.ts";
import { MESSAGES } from "../../../api/rules/messages.ts";
import { catalogueStyleInfo } from "../../catalogue/style-json.ts";
import { findStyle, variantsOf } from "../../catalogue/styles.ts";
import { buildGeneration, priceOf } from "../../lifecycle/generation-factory.ts";
import { isBatchTerminal } from "../../../api/protocol/statuses.ts";
import { deriveBatch } from "../../records/batch-state.ts";
import type { Account } from "../../store/accounts.ts";
import type { BatchEntity } from "../../store/entities.ts";
import { hashId, microTimestamp } from "../../store/record-store.ts";
import type { ApiHandlers } from "../api-routes.ts";
import type { AppEnv, ServiceContext } from "../context.ts";
import { httpAnswerOf } from "../domain-answer.ts";
import { HttpError, notFound, ruleError } from "../http-error.ts";
import { paginate } from "../paginate.ts";
import { bodyInput, queryInput } from "../lenient-input.ts";
import type { Uploads } from "../../records/uploads.ts";
import { assertGenerationsEnabled, resolveParams } from "./generation-handlers.ts";

const statusOf = (ctx: ServiceContext, b: BatchEntity) =>
  deriveBatch(b, b.generationIds.map((id) => ctx.store.generations.get(id)!).filter(Boolean)).status;

/**
 * POST /skybox/batch in the spec's order: quantity, plan, style, variant, one batch at a
 * time, cap and credits for the whole batch; then each generation is created, and one
 * that fails is a submission error that does not stop the others.
 */
function createBatch(ctx: ServiceContext, uploads: Uploads, c: Context<AppEnv>) {
  assertGenerationsEnabled(ctx);
  const account = c.get("account");
  const params = resolveParams(ctx, account, bodyInput(ctx, c, BatchParams));
  const quantityIssues = checkBatch(params, { account });
  if (quantityIssues.length) throw ruleError(quantityIssues);
  const style = findStyle(params.skybox_style_id);
  if (!style) throw notFound(MESSAGES.styleNotFound);
  const info = catalogueStyleInfo(style);
  const variantName = variantsOf(style).find((v) => v.id === params.variant_id)?.name ?? null;
  const structural = checkBatch(params, { style: info });
  if (structural.length) throw ruleError(structural);
  const single = checkGeneration(params, { style: info }).filter((i) => i.rule !== "model4-needs-variant");
  if (single.length) throw ruleError(single);
  const busy = [...ctx.store.batches.values()].some((b) => b.accountId === account.id && !isBatchTerminal(statusOf(ctx, b)));
  if (busy) throw new HttpError(409, MESSAGES.batchInProgress);
  const money = checkBatch(params, { style: info, variantName, account });
  if (money.length) throw ruleError(money);

  const quantity = Number(params.quantity);
  const now = microTimestamp();
  const batch: BatchEntity = {
    id: ctx.store.nextBatchId(),
    obfuscatedId: hashId(),
    accountId: account.id,
    quantity,
    generationIds: [],
    submissionErrors: [],
    webhookUrl: params.webhook_url ?? null,
    lastEvent: null,
    createdAt: now,
    updatedAt: now,
  };
  ctx.store.batches.set(batch.id, batch);
  // The base seed is the one asked for, or drawn for 0 or none (resolveParams).
  const baseSeed = params.seed!;
  for (let index = 0; index < quantity; index++) {
    try {
      // Each item gets its own seed (seed + index) so a batch gives different skyboxes; the
      // batch-level webhook reports the batch, so items carry none.
      // Wrapped within 1..SEED_MAX: typed clients read the seed as a 32-bit integer.
      const item = { ...params, seed: ((baseSeed - 1 + index) % SEED_MAX) + 1, webhook_url: null };
      const g = buildGeneration(ctx.store, ctx.dataDir, uploads, { account, params: item, style, batchId: batch.id });
      ctx.accounts.charge(account, priceOf(item, style));
      batch.generationIds.push(g.id);
      ctx.generations.submit(g);
    } catch (error) {
      const answer = httpAnswerOf(error);
      batch.submissionErrors.push({ index, message: (answer ?? (error as Error)).message, status: answer?.status ?? 500 });
    }
  }
  ctx.store.changed(batch);
  ctx.events.batch(batch);
  return ctx.views.batch(batch, true);
}

function ownBatch(ctx: ServiceContext, account: Account, id: string): BatchEntity {
  const b = /^\d+$/.test(id) ? ctx.store.batches.get(Number(id)) : undefined;
  if (!b || b.accountId !== account.id) throw notFound(MESSAGES.batchNotFound);
  return b;
}

export const batchHandlers = (ctx: ServiceContext, uploads: Uploads) =>
  ({
    generateBatch: (c) => c.json(createBatch(ctx, uploads, c)),
    batches: (c) => {
      const q = queryInput(ctx, c, BatchListQuery);
      const account = c.get("account");
      const items = [...ctx.store.batches.values()].filter(
        (b) => b.accountId === account.id && (q.batch_id == null || b.id === q.batch_id) && matchesStatus(q.status, statusOf(ctx, b)),
      );
      return c.json(
        paginate(
          items,
          (b) => b.id,
          q,
          (b) => ctx.views.batch(b, false),
        ),
      );
    },
    getBatch: (c, { id }) => c.json(ctx.views.batch(ownBatch(ctx, c.get("account"), id), true)),
  }) satisfies Partial<ApiHandlers>;
