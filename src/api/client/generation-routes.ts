import * as z from "zod/mini";
import { GenerateParams } from "../requests/generate-params.ts";
import { HistoryQuery } from "../requests/list-queries.ts";
import { checkGeneration } from "../rules/generation-rules.ts";
import type { Plan } from "../reference.ts";
import type { StyleInfo } from "../rules/style-info.ts";
import { success } from "../schemas/fields.ts";
import { Generation, WrappedGeneration } from "../schemas/generation.ts";
import { Page } from "../schemas/page.ts";
import type { CallOptions } from "./client-options.ts";
import { encodeBody, type BodyEncoding } from "./body-encoding.ts";
import type { Send } from "./transport.ts";
import { assertRules, parseParams } from "./validate.ts";

export interface GenerateOptions extends CallOptions {
  /** How files travel. @default "auto" */
  encoding?: BodyEncoding;
  /** The style, to check model, variant and text limits before sending (else looked up among styles already fetched). */
  style?: StyleInfo | null;
  plan?: Plan | null;
}

const Success = z.looseObject({ success: z.optional(success), error: z.optional(z.string()), id: z.optional(z.unknown()) });
export type SuccessResult = z.infer<typeof Success>;

export function generationRoutes(send: Send, styleById: (id: number) => StyleInfo | undefined) {
  return {
    /** POST /skybox: starts a generation; the record comes back `pending`. Never retried. */
    async generate(params: GenerateParams, options: GenerateOptions = {}) {
      parseParams(GenerateParams, params, "generate");
      const style = options.style ?? styleById(Number(params.skybox_style_id)) ?? null;
      assertRules(checkGeneration(params, { style, plan: options.plan ?? null }), "generate");
      return send("generate", { ...options, schema: Generation, body: await encodeBody(params, options.encoding) });
    },
    /** GET /imagine/myRequests: the caller's generations; `offset` counts items. */
    async history(query: HistoryQuery = {}, options: CallOptions = {}) {
      const q = parseParams(HistoryQuery, query, "history");
      return send("history", { ...options, schema: Page(Generation), query: q });
    },
    /** DELETE /imagine/requests/{id}: cancels a generation (it becomes `abort`). */
    cancelGeneration: (id: number, options: CallOptions = {}) => send("cancelGeneration", { ...options, params: { id }, schema: Success }),
    /** DELETE /imagine/requests/pending: cancels every pending generation; `success` is false when there were none. */
    cancelAllPending: (options: CallOptions = {}) =>
      send("cancelAllPending", {
        ...options,
        schema: z.pipe(
          Success,
          z.transform((r) => ({ ...r, success: Boolean(r.success) })),
        ),
      }),
    /** POST /imagine/favorite/{id}: marks a generation as a favourite, or unmarks it; see `history({ my_likes: true })`. */
    toggleFavorite: (id: number, options: CallOptions = {}) =>
      send("toggleFavorite", { ...options, params: { id }, schema: WrappedGeneration }),
    /** DELETE /imagine/deleteImagine/{id}: deletes a generation. */
    deleteGeneration: (id: number, options: CallOptions = {}) => send("deleteGeneration", { ...options, params: { id }, schema: Success }),
  };
}
