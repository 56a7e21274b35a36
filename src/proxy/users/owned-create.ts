/**
 * A request that creates records (a generation, a batch, an export), for a caller: every
 * record its fields name (the source of an edit, a remix, an export) must be the caller's
 * own, or it is a 404 as if it did not exist; its credits are reserved against the daily
 * cap before it is forwarded; and the caller is recorded as the owner of what it created
 * before the response returns.
 */
import { pathOf } from "../../api/protocol/routes.ts";
import { forwardApi } from "../upstream/api-forward.ts";
import { ProxyError } from "../proxy-error.ts";
import { readBodyLimited } from "../upstream/api-request-body.ts";
import { maySee, type Caller } from "./caller.ts";
import type { Reservation } from "./generation-charges.ts";
import type { OwnedContext } from "./owned-context.ts";
import type { Reference, RouteRule } from "./owned-routes.ts";
import { createdRecords, idOf, recordIn, refOf } from "./record-refs.ts";
import { requestFields, type RequestFields } from "./request-fields.ts";
import { upstreamCalls } from "./upstream-calls.ts";
import type { TextResponse } from "../text-response.ts";
import { withBody, type ProxyRequest } from "../proxy-request.ts";

type CreateRule = Extract<RouteRule, { does: "create" }>;

/** @param pathStyle the style id a deprecated create names in its path, used when the body names none */
export async function createOwned(
  ctx: OwnedContext,
  caller: Caller,
  request: ProxyRequest,
  apiPath: string,
  rule: CreateRule,
  pathStyle: string | null,
): Promise<TextResponse> {
  const bytes = await readBodyLimited(request, ctx.api.options.maxBodyBytes);
  const read = await requestFields(bytes, request.headers.get("content-type"), new URL(request.url).searchParams);
  const fields = pathStyle && !read.has("skybox_style_id") ? new Map([...read, ["skybox_style_id", [pathStyle]]]) : read;
  if (caller.owned) await checkReferences(ctx, caller, fields, rule.references);
  const reservation = await reserve(ctx, caller, request, fields, rule);
  let forwarded: TextResponse;
  try {
    forwarded = await forwardApi(ctx.api, withBody(request, bytes), apiPath);
  } catch (error) {
    // A timeout may still have created it upstream: its credits stay counted.
    if (reservation && !(error instanceof ProxyError && error.status === 504)) await ctx.charges!.release(reservation.held);
    throw error;
  }
  const body = forwarded.json();
  if (!forwarded.ok) {
    if (reservation) await ctx.charges!.release(reservation.held);
    return forwarded;
  }
  const created = createdRecords(rule.record, body);
  if (caller.owned) await recordOwner(ctx, caller, created);
  if (reservation) {
    const generations = created.filter((c) => c.kind === "generation").map((c) => idOf(c.record)!);
    await ctx.charges!.commit(reservation.held, generations, reservation.each).catch(() => {});
  }
  return forwarded;
}

/** Fails with 404 when a field names a record the caller may not see. */
async function checkReferences(ctx: OwnedContext, caller: Caller, fields: RequestFields, references: readonly Reference[]): Promise<void> {
  const named = references.flatMap((r) =>
    (fields.get(r.field) ?? []).map((value) => ({
      field: r.field,
      value,
      ref: refOf(r.names === "generation-hash" && /^\d+$/.test(value) ? "generation" : r.names, value),
    })),
  );
  if (!named.length) return;
  const owners = await ctx.ledger.ownersOf(named.map((n) => n.ref));
  const hidden = named.find((_, i) => !maySee(caller, owners[i] ?? null));
  if (hidden)
    throw new ProxyError(
      404,
      `${hidden.field}: ${hidden.field === "remix_collection_id" ? "collection" : "skybox"} ${hidden.value} not found`,
    );
}

/** Holds the request's credits against the caller's day (generations and batches; exports cost none here). */
async function reserve(
  ctx: OwnedContext,
  caller: Caller,
  request: ProxyRequest,
  fields: RequestFields,
  rule: CreateRule,
): Promise<{ held: Reservation; each: number } | null> {
  const charges = ctx.charges;
  if (!charges || rule.record === "export") return null;
  const batch = rule.record === "batch";
  const [each, total] = charges.capped ? await Promise.all([ctx.prices.priceOf(fields, false), ctx.prices.priceOf(fields, batch)]) : [0, 0];
  const upstream = upstreamCalls(ctx.api, request.signal);
  const held = await charges.reserve(caller.user, total, async (ids) => {
    // Read each open generation again: those that ended give their credits back.
    await Promise.all(
      ids.map(async (id) => {
        const record = recordIn(await upstream("GET", pathOf("getGeneration", { id })).catch(() => null));
        if (record) await charges.settle(id, record.status);
      }),
    );
  });
  return { held, each };
}

async function recordOwner(ctx: OwnedContext, caller: Caller, created: ReturnType<typeof createdRecords>): Promise<void> {
  try {
    await ctx.ledger.record(caller.user, created);
  } catch (error) {
    if (!(error instanceof ProxyError)) throw error;
    throw new ProxyError(
      503,
      "The Skybox API accepted the request, but the proxy could not record that it is yours (its store is unreachable): it is shown to administrators only. Try again in a few seconds.",
      { "retry-after": "5" },
    );
  }
}
