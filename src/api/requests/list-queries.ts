import * as z from "zod";
import { BATCH_STATUSES, REQUEST_STATUSES } from "../protocol/statuses.ts";
import { flag, int, integerFrom } from "../schemas/fields.ts";

/** The status filter that filters nothing: the real service's default, which clients also send. */
export const ALL_STATUSES = "all";

/** A list's status filter: one of the record's statuses, or `all`. */
const statusFilter = <S extends readonly [string, ...string[]]>(statuses: S) => z.enum([...statuses, ALL_STATUSES]).optional();

/** Whether a record's status passes a list's status filter (none and `all` pass everything). */
export const matchesStatus = (filter: string | undefined, status: string): boolean => !filter || filter === ALL_STATUSES || filter === status;

/**
 * Paging shared by every list route. `offset` counts items (the spec's "page index x
 * limit"), and `has_more` is `offset + data.length < totalCount`.
 */
const paging = {
  limit: integerFrom(1, 100).optional(),
  offset: integerFrom(0).optional(),
  order: z.enum(["ASC", "DESC", "asc", "desc"]).transform((v) => v.toUpperCase() as "ASC" | "DESC").optional(),
};

/** GET /api/v1/imagine/myRequests */
export const HistoryQuery = z.strictObject({
  ...paging,
  status: statusFilter(REQUEST_STATUSES),
  imagine_id: int.optional(),
  query: z.string().optional(),
  generator: z.string().optional(),
  skybox_style_id: int.optional(),
  api_key_id: int.optional(),
  /** Only the caller's favourites (the .NET and Unity SDKs' `FavoritesOnly`). */
  my_likes: flag.optional(),
});
export type HistoryQuery = z.input<typeof HistoryQuery>;

/** GET /api/v1/skybox/export/history */
export const ExportHistoryQuery = z.strictObject({
  ...paging,
  status: statusFilter(REQUEST_STATUSES),
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
  status: statusFilter(BATCH_STATUSES),
  batch_id: int.optional(),
});
export type BatchListQuery = z.input<typeof BatchListQuery>;

export const DEFAULT_PAGE_SIZE = 18;
export const MAX_PAGE_SIZE = 100;
