import * as z from "zod/mini";
import { BATCH_STATUSES, REQUEST_STATUSES } from "../protocol/statuses.ts";
import { flag, int, integerFrom } from "../schemas/fields.ts";

/** The status filter that filters nothing: the real service's default, which clients also send. */
export const ALL_STATUSES = "all";

/** A list's status filter: one of the record's statuses, or `all`. */
/* @__NO_SIDE_EFFECTS__ */
const statusFilter = <S extends readonly [string, ...string[]]>(statuses: S) => z.optional(z.enum([...statuses, ALL_STATUSES]));

/** Whether a record's status passes a list's status filter (none and `all` pass everything). */
export const matchesStatus = (filter: string | undefined, status: string): boolean =>
  !filter || filter === ALL_STATUSES || filter === status;

/**
 * Paging shared by every list route. `offset` counts items (the spec's "page index x
 * limit"), and `has_more` is `offset + data.length < totalCount`.
 */
const paging = {
  limit: z.optional(integerFrom(1, 100)),
  offset: z.optional(integerFrom(0)),
  order: z.optional(
    z.pipe(
      z.enum(["ASC", "DESC", "asc", "desc"]),
      z.transform((v) => v.toUpperCase() as "ASC" | "DESC"),
    ),
  ),
};

/** GET /api/v1/imagine/myRequests */
export const HistoryQuery = z.strictObject({
  ...paging,
  status: statusFilter(REQUEST_STATUSES),
  imagine_id: z.optional(int),
  query: z.optional(z.string()),
  generator: z.optional(z.string()),
  skybox_style_id: z.optional(int),
  api_key_id: z.optional(int),
  /** Only the caller's favourites (the .NET and Unity SDKs' `FavoritesOnly`). */
  my_likes: z.optional(flag),
});
export type HistoryQuery = z.input<typeof HistoryQuery>;

/** GET /api/v1/skybox/export/history */
export const ExportHistoryQuery = z.strictObject({
  ...paging,
  status: statusFilter(REQUEST_STATUSES),
  export_id: z.optional(z.union([int, z.string()])),
  api_key_id: z.optional(int),
  type_id: z.optional(int),
  resolution_id: z.optional(int),
  mesh_quality_id: z.optional(int),
  hdri_mode_id: z.optional(int),
});
export type ExportHistoryQuery = z.input<typeof ExportHistoryQuery>;

/** GET /api/v1/skybox/batch */
export const BatchListQuery = z.strictObject({
  ...paging,
  status: statusFilter(BATCH_STATUSES),
  batch_id: z.optional(int),
});
export type BatchListQuery = z.input<typeof BatchListQuery>;

/** Items a history page holds when `limit` is not given. */
export const DEFAULT_PAGE_SIZE = 18;
/** The largest `limit` a history page may ask for. */
export const MAX_PAGE_SIZE = 100;
