/**
 * `POST {basePath}/webhook`: the upstream's status messages, checked as the spec says
 * (signature of the raw body with the API secret, `x-timestamp` within 300 s) and not
 * accepted twice, then relayed to the browsers subscribed to the record's channel.
 */
import { batchChannel, exportChannel, generationChannel } from "../api/protocol/channels.ts";
import type { EventRelay } from "./event-relay.ts";
import { jsonResponse, ProxyError } from "./ProxyError.ts";
import type { ReplayGuard } from "./replay-guard.ts";
import { readBodyLimited } from "./request-body.ts";
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, verifyWebhookSignature, WEBHOOK_TOLERANCE_SECONDS } from "./webhook-signature.ts";

export interface WebhookContext {
  secret: string;
  replays: ReplayGuard;
  relay: EventRelay;
  /** The record as browsers get it (see ApiContext.present). */
  present: (record: unknown) => string;
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
  if (!ctx.replays.firstSeen(signature.trim().toLowerCase())) throw new ProxyError(409, "This webhook was already received");
  let record: unknown;
  try {
    record = JSON.parse(new TextDecoder().decode(raw));
  } catch {
    throw new ProxyError(400, "The webhook body is not JSON");
  }
  const channel = channelOf(record);
  const delivered = channel ? ctx.relay.publish(channel, ctx.present(record)) : 0;
  return jsonResponse({ received: true, channel, delivered });
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
