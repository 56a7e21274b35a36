/**
 * `POST {basePath}/webhook`: the upstream's status messages, checked as the spec says
 * (signature of the raw body with the API secret, `x-timestamp` within 300 s) and not
 * accepted twice, then relayed to the browsers subscribed to the record's channel.
 */
import { batchChannel, exportChannel, generationChannel } from "../api/protocol/channels.ts";
import { jsonResponse, ProxyError } from "./ProxyError.ts";
import type { SharedRelay } from "./store/shared-relay.ts";
import type { ReplayCheck } from "./store/shared-replay-guard.ts";
import { readBodyLimited } from "./request-body.ts";
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, verifyWebhookSignature, WEBHOOK_TOLERANCE_SECONDS } from "./webhook-signature.ts";

export interface WebhookContext {
  secret: string;
  replays: ReplayCheck;
  relay: Pick<SharedRelay, "publish">;
  /** The record as browsers get it (see ApiContext.present). */
  present: (record: unknown) => string;
  /** Sees each accepted record (ended generations settle their credits). */
  observe?: (record: unknown) => Promise<void>;
  now?: () => number;
}

/** Status messages are single records; a batch of 30 generations is a few tens of kB. */
const MAX_WEBHOOK_BYTES = 1024 * 1024;

export async function receiveWebhook(ctx: WebhookContext, request: Request): Promise<Response> {
  if (request.method !== "POST") throw new ProxyError(405, "Webhooks are POSTed", { allow: "POST" });
  const raw = await readBodyLimited(request, MAX_WEBHOOK_BYTES);
  const timestamp = Number(request.headers.get(TIMESTAMP_HEADER));
  const age = Math.abs((ctx.now ?? Date.now)() / 1000 - timestamp);
  if (!Number.isFinite(age) || age > WEBHOOK_TOLERANCE_SECONDS) throw new ProxyError(401, "x-timestamp is missing or too far from now");
  const signature = request.headers.get(SIGNATURE_HEADER) ?? "";
  if (!(await verifyWebhookSignature(raw, signature, ctx.secret))) throw new ProxyError(401, "x-signature does not match the body");
  const key = signature.trim().toLowerCase();
  if (!(await ctx.replays.firstSeen(key))) throw new ProxyError(409, "This webhook was already received");
  let record: unknown;
  try {
    record = JSON.parse(new TextDecoder().decode(raw));
  } catch {
    throw new ProxyError(400, "The webhook body is not JSON");
  }
  const channel = channelOf(record);
  const delivered = await relayOnce(ctx, key, channel, record);
  return jsonResponse({ received: true, channel, delivered });
}

/** Relays an accepted record; when that fails (the store is away), the claim is forgotten so the sender's retry is taken. */
async function relayOnce(ctx: WebhookContext, key: string, channel: string | null, record: unknown): Promise<number> {
  try {
    await ctx.observe?.(record);
    return channel ? await ctx.relay.publish(channel, ctx.present(record)) : 0;
  } catch (error) {
    await ctx.replays.forget(key).catch(() => {});
    throw error;
  }
}

/**
 * The push channel a status message belongs to: its `pusher_channel`, else the name the spec
 * gives for its kind (the export message's payload is not shown, so its id decides).
 */
export function channelOf(record: unknown): string | null {
  if (typeof record !== "object" || record === null) return null;
  const r = record as Record<string, unknown>;
  if (typeof r.pusher_channel === "string" && r.pusher_channel) return r.pusher_channel;
  if (typeof r.obfuscated_id === "string") return "quantity" in r ? batchChannel(r.obfuscated_id) : generationChannel(r.obfuscated_id);
  if (typeof r.id === "string") return exportChannel(r.id);
  return null;
}
