import * as z from "zod";
import { BATCH_STATUSES, REQUEST_STATUSES } from "../protocol/statuses.ts";
import { int } from "../schemas/fields.ts";

/**
 * Paging shared by every list route. `offset` counts items (the spec's "page index x
 * limit"), and `has_more` is `offset + data.length < totalCount`.
 */
const paging = {
  limit: int.pipe(z.number().int().min(1).max(100)).optional(),
  offset: int.pipe(z.number().int().min(0)).optional(),
  order: z.enum(["ASC", "DESC", "asc", "desc"]).transform((v) => v.toUpperCase() as "ASC" | "DESC").optional(),
};

/** GET /api/v1/imagine/myRequests */
export const HistoryQuery = z.strictObject({
  ...paging,
  status: z.enum(REQUEST_STATUSES).optional(),
  imagine_id: int.optional(),
  query: z.string().optional(),
  generator: z.string().optional(),
  skybox_style_id: int.optional(),
  api_key_id: int.optional(),
});
export type HistoryQuery = z.input<typeof HistoryQuery>;

/** GET /api/v1/skybox/export/history */
export const ExportHistoryQuery = z.strictObject({
  ...paging,
  status: z.enum(REQUEST_STATUSES).optional(),
  export_id: z.union([int, z.string()]).optional(),
  api_key_id: int.optional(),
  type_id: int.optional(),
  resolution_id: int.optional(),
  mesh_quality_id: int.optional(),
  hdri_mode_id: int.optional(),
});
export type ExportHistoryQuery = z.input<typeof ExportHistoryQuery>;

/** GET /api/v1/skybox/batch */
export const BatchListQuery = z.strictObject({
  ...paging,
  status: z.enum(BATCH_STATUSES).optional(),
  batch_id: int.optional(),
});
export type BatchListQuery = z.input<typeof BatchListQuery>;

export const DEFAULT_PAGE_SIZE = 18;
export const MAX_PAGE_SIZE = 100;
