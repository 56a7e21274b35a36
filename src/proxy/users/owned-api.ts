/**
 * An API request for a caller, by what its route does to owned records (owned-routes.ts):
 * a record of another user, or of no known owner for anyone but an administrator, is a 404
 * as if it did not exist; lists hold the caller's own; "cancel pending" cancels the
 * caller's own. Generation records seen in responses settle their credits. Reference routes,
 * and every route for a proxy without users, are forwarded as they are.
 */
import { API_PREFIX, type ApiRoute } from "../../api/protocol/routes.ts";
import { matchApiRoute } from "../upstream/allow-list.ts";
import { forwardApi } from "../upstream/api-forward.ts";
import { OWN_JSON_HEADERS, ProxyError } from "../proxy-error.ts";
import { TextResponse, type RouteResponse } from "../text-response.ts";
import { maySee, type Caller } from "./caller.ts";
import { createOwned } from "./owned-create.ts";
import type { OwnedContext } from "./owned-context.ts";
import { ownedListPage } from "./owned-lists.ts";
import { paramOf, routeNameOf, ROUTE_RULES, type RouteRule } from "./owned-routes.ts";
import { cancelOwnPending } from "./pending-cancel.ts";
import { generationsIn, refOf, type RecordKind } from "./record-refs.ts";
import { upstreamCalls } from "./upstream-calls.ts";
import type { ProxyRequest } from "../proxy-request.ts";

/** `apiPath` is the request's path from `/api/v1` on. */
export async function forwardOwned(ctx: OwnedContext, caller: Caller, request: ProxyRequest, apiPath: string): Promise<RouteResponse> {
  const match = matchApiRoute(request.method, apiPath.slice(API_PREFIX.length));
  const route = match && "route" in match ? match.route : null;
  const name = route && routeNameOf(route);
  const rule = name ? ROUTE_RULES[name] : undefined;
  if (!route || !rule) return forwardApi(ctx.api, request, apiPath);
  switch (rule.does) {
    case "reference":
      return forwardApi(ctx.api, request, apiPath);
    case "create":
      // The deprecated create names its style in the path (`/skybox/{id}`).
      return createOwned(ctx, caller, request, apiPath, rule, paramOf(route, apiPath.slice(API_PREFIX.length)));
    case "read":
      return readOwned(ctx, caller, request, apiPath, route, rule);
    case "list":
      if (!caller.owned || caller.admin) return observed(ctx, rule.record, await forwardApi(ctx.api, request, apiPath));
      return listOwned(ctx, caller, request, route, rule);
    case "cancel-pending":
      if (!caller.owned || !ctx.charges) return forwardApi(ctx.api, request, apiPath);
      return cancelOwnPending(ctx.charges, upstreamCalls(ctx.api, request.signal), caller.user);
  }
}

type ReadRule = Extract<RouteRule, { does: "read" }>;

async function readOwned(
  ctx: OwnedContext,
  caller: Caller,
  request: ProxyRequest,
  apiPath: string,
  route: ApiRoute,
  rule: ReadRule,
): Promise<TextResponse> {
  const id = paramOf(route, apiPath.slice(API_PREFIX.length)) ?? "";
  const owner = caller.owned ? await ctx.ledger.ownerOf(refOf(rule.names, id)) : null;
  if (caller.owned && !maySee(caller, owner)) throw new ProxyError(404, rule.notFound(id));
  const forwarded = await forwardApi(ctx.api, request, apiPath);
  if (rule.deletes && forwarded.ok && owner !== null) await ctx.ledger.unlist(owner, "generation", [id]);
  // A cancelled generation is aborted: its credits come back at once.
  if (rule.cancels && forwarded.ok && ctx.charges && (forwarded.json() as { success?: unknown } | null)?.success)
    await ctx.charges.settle(id, "abort").catch(() => {});
  return observed(ctx, rule.record, forwarded);
}

async function listOwned(
  ctx: OwnedContext,
  caller: Caller,
  request: ProxyRequest,
  route: ApiRoute,
  rule: Extract<RouteRule, { does: "list" }>,
): Promise<TextResponse> {
  const list = { caller, kind: rule.record, path: route.path, idFilter: rule.idFilter, query: new URL(request.url).searchParams };
  const page = await ownedListPage(ctx.ledger, upstreamCalls(ctx.api, request.signal), list);
  await settle(ctx, rule.record, page);
  // Items were scrubbed as they came; the page is scrubbed as a whole once more.
  return new TextResponse(200, { ...OWN_JSON_HEADERS }, ctx.api.scrub.text(JSON.stringify(page)));
}

/** The response unchanged, once the generations it shows have settled their credits. */
async function observed(ctx: OwnedContext, kind: RecordKind, forwarded: TextResponse): Promise<TextResponse> {
  if (ctx.charges && forwarded.ok && kind !== "export") await settle(ctx, kind, forwarded.json());
  return forwarded;
}

/** Settles the credits of the ended generations in `body`; a store failure here is not the reader's problem. */
async function settle(ctx: OwnedContext, kind: RecordKind, body: unknown): Promise<void> {
  const charges = ctx.charges;
  if (!charges) return;
  await Promise.all(generationsIn(kind, body).map((g) => charges.settle(String(g.id), g.status).catch(() => {})));
}
