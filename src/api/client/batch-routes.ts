import { BatchParams } from "../requests/generate-params.ts";
import { BatchListQuery } from "../requests/list-queries.ts";
import { checkBatch, type BatchAccount } from "../rules/batch-rules.ts";
import { checkGeneration } from "../rules/generation-rules.ts";
import type { StyleInfo } from "../rules/style-info.ts";
import { Batch } from "../schemas/batch.ts";
import { Page } from "../schemas/page.ts";
import type { CallOptions } from "./client-options.ts";
import { encodeBody, type BodyEncoding } from "./body-encoding.ts";
import type { Send } from "./transport.ts";
import { assertRules, parseParams } from "./validate.ts";

export interface BatchOptions extends CallOptions {
  encoding?: BodyEncoding;
  style?: StyleInfo | null;
  /** Name of the chosen variant (its price), when known. */
  variantName?: string | null;
  /** Plan and credits, to check the cap and the cost before sending. */
  account?: BatchAccount | null;
}

export function batchRoutes(send: Send, styleById: (id: number) => StyleInfo | undefined) {
  return {
    /** POST /skybox/batch: queues `quantity` generations. Never retried. */
    async generateBatch(params: BatchParams, options: BatchOptions = {}) {
      parseParams(BatchParams, params, "generateBatch");
      const style = options.style ?? styleById(Number(params.skybox_style_id)) ?? null;
      const ctx = { style, variantName: options.variantName ?? null, account: options.account ?? null };
      assertRules(checkBatch(params, ctx), "generateBatch");
      // A Model 4 batch without a variant got the spec's batch message above; the single rule would repeat it.
      assertRules(
        checkGeneration(params, { style }).filter((i) => i.rule !== "model4-needs-variant"),
        "generateBatch",
      );
      return send("generateBatch", { ...options, schema: Batch, body: await encodeBody(params, options.encoding) });
    },
    /** GET /skybox/batch: the caller's batches, without generations. */
    async batches(query: BatchListQuery = {}, options: CallOptions = {}) {
      const q = parseParams(BatchListQuery, query, "batches");
      return send("batches", { ...options, schema: Page(Batch), query: q });
    },
  };
}
