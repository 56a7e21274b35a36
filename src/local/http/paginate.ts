import { DEFAULT_PAGE_SIZE } from "../../api/requests/list-queries.ts";

export interface PageQuery {
  limit?: number | undefined;
  offset?: number | undefined;
  order?: "ASC" | "DESC" | undefined;
}

/**
 * One page of a list ordered by `key`: `offset` counts items (the spec's "page index x
 * limit"), and `has_more` is true exactly when items remain after this page.
 */
export function paginate<T, R>(items: readonly T[], key: (item: T) => number | string, query: PageQuery, view: (item: T) => R) {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const offset = query.offset ?? 0;
  const sign = query.order === "ASC" ? 1 : -1;
  const sorted = items.toSorted((a, b) => (key(a) < key(b) ? -sign : key(a) > key(b) ? sign : 0));
  const data = sorted.slice(offset, offset + limit).map(view);
  return { data, totalCount: sorted.length, has_more: offset + data.length < sorted.length };
}
