/**
 * A user's history (generations, exports, batches) when the account's lists hold everyone's.
 * The upstream cannot filter by our users, so a page is made honestly in one of two ways,
 * with `totalCount` counting exactly the caller's items that match and `has_more` being
 * `offset + data.length < totalCount` (the spec's paging, `offset` counting items):
 *
 * - **No filter** (only limit, offset, order): the page is taken from the ledger's list of
 *   the user's ids, and each item read from the upstream by its id filter (`imagine_id`,
 *   `export_id`, `batch_id`); `totalCount` is the length of that list. An id the upstream
 *   no longer has (deleted elsewhere) leaves the list and the page is taken again. Cost:
 *   one upstream request per item of the page, whatever the account's size.
 * - **Filters** (status, search, style...): the upstream filters, the proxy keeps the
 *   caller's items. It either scans the account's matching records 100 at a time, or reads
 *   each of the user's records with the filters; it picks the one with fewer requests,
 *   knowing both sizes after the first scan page. Cost: min(matching records / 100, the
 *   user's records) upstream requests.
 */
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../../api/requests/list-queries.ts";
import type { Caller } from "./caller.ts";
import type { OwnershipLedger } from "./ownership-ledger.ts";
import { idOf, refOf, type RecordKind } from "./record-refs.ts";
import { mapLimited, type UpstreamCall } from "./upstream-calls.ts";

type Item = Record<string, unknown>;

export interface ListRequest {
  caller: Caller;
  kind: RecordKind;
  /** The list route's path (after /api/v1). */
  path: string;
  /** The route's filter by one id. */
  idFilter: string;
  query: URLSearchParams;
}

export interface ListPage {
  data: Item[];
  totalCount: number;
  has_more: boolean;
}

const PAGING = new Set(["limit", "offset", "order"]);
const SCAN_PAGE = MAX_PAGE_SIZE;
/** Upstream requests in flight at once for one page. */
const PARALLEL = 6;

export async function ownedListPage(ledger: OwnershipLedger, upstream: UpstreamCall, list: ListRequest): Promise<ListPage> {
  const limit = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.trunc(Number(list.query.get("limit") ?? DEFAULT_PAGE_SIZE)) || DEFAULT_PAGE_SIZE));
  const offset = Math.max(0, Math.trunc(Number(list.query.get("offset") ?? 0)) || 0);
  const desc = (list.query.get("order") ?? "DESC").toUpperCase() !== "ASC";
  const filters = new URLSearchParams([...list.query].filter(([name]) => !PAGING.has(name)));
  if (filters.size === 0) return ledgerPage(ledger, upstream, list, { limit, offset, desc });
  const matching = await filteredItems(ledger, upstream, list, filters, desc);
  const data = matching.slice(offset, offset + limit);
  return { data, totalCount: matching.length, has_more: offset + data.length < matching.length };
}

/** The item with `id` through the list's id filter: the item, "gone" when the upstream has none, null when it did not filter. */
async function readItem(
  upstream: UpstreamCall,
  list: ListRequest,
  id: string,
  filters = new URLSearchParams(),
): Promise<Item | "gone" | null> {
  const query = new URLSearchParams(filters);
  query.set(list.idFilter, id);
  const page = pageOf(await upstream("GET", list.path, query));
  return page.data.find((item) => idOf(item) === id) ?? (page.totalCount === 0 ? "gone" : null);
}

async function ledgerPage(
  ledger: OwnershipLedger,
  upstream: UpstreamCall,
  list: ListRequest,
  p: { limit: number; offset: number; desc: boolean },
): Promise<ListPage> {
  for (let attempt = 0; ; attempt++) {
    const { members, total } = await ledger.page(list.caller.user, list.kind, p.offset, p.limit, p.desc);
    const items = await mapLimited(members, PARALLEL, (id) => readItem(upstream, list, id));
    const gone = members.filter((_, i) => items[i] === "gone");
    if (gone.length && attempt < 3) {
      await ledger.unlist(list.caller.user, list.kind, gone);
      continue;
    }
    const data = items.filter((item): item is Item => item !== null && item !== "gone");
    const totalCount = total - gone.length;
    return { data, totalCount, has_more: p.offset + data.length < totalCount };
  }
}

/** Every item of the caller that matches `filters`, in the list's order. */
async function filteredItems(
  ledger: OwnershipLedger,
  upstream: UpstreamCall,
  list: ListRequest,
  filters: URLSearchParams,
  desc: boolean,
): Promise<Item[]> {
  const scan = (offset: number) =>
    upstream(
      "GET",
      list.path,
      new URLSearchParams([...filters, ["limit", String(SCAN_PAGE)], ["offset", String(offset)], ["order", desc ? "DESC" : "ASC"]]),
    );
  const first = pageOf(await scan(0));
  const mine = await ledger.page(list.caller.user, list.kind, 0, 0, desc);
  const scanRequests = Math.ceil(first.totalCount / SCAN_PAGE);
  if (scanRequests > mine.total && !filters.has(list.idFilter)) {
    const { members } = await ledger.page(list.caller.user, list.kind, 0, mine.total, desc);
    const items = await mapLimited(members, PARALLEL, (id) => readItem(upstream, list, id, filters));
    return items.filter((item): item is Item => item !== null && item !== "gone");
  }
  const kept = await ownItems(ledger, list, first.data);
  for (let seen = first.data.length; seen < first.totalCount;) {
    const page = pageOf(await scan(seen));
    if (page.data.length === 0) break;
    kept.push(...(await ownItems(ledger, list, page.data)));
    seen += page.data.length;
  }
  return kept;
}

/** The caller's items among `items`. */
async function ownItems(ledger: OwnershipLedger, list: ListRequest, items: Item[]): Promise<Item[]> {
  const owners = await ledger.ownersOf(items.map((item) => refOf(list.kind, idOf(item) ?? "")));
  return items.filter((_, i) => owners[i] === list.caller.user);
}

/** A list response's parts, defaulted when missing. */
function pageOf(body: unknown): ListPage {
  const b = (typeof body === "object" && body !== null ? body : {}) as Partial<ListPage>;
  const data = Array.isArray(b.data) ? b.data.filter((i): i is Item => typeof i === "object" && i !== null) : [];
  return { data, totalCount: Number(b.totalCount ?? data.length) || 0, has_more: Boolean(b.has_more) };
}
