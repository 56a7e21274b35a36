/**
 * `POST {basePath}/webhook`: the upstream's status messages, checked as the spec says
 * (signature of the raw body with the API secret, `x-timestamp` within 300 s) and not
 * accepted twice, then relayed to the browsers subscribed to the record's channel. Every
 * check that needs no body (rate, size, timestamp, the signature's shape) runs before the
 * body is read, and the read is bounded (webhook-gate.ts).
 */
import { batchChannel, exportChannel, generationChannel } from "../../api/protocol/channels.ts";
import { jsonResponse, ProxyError } from "../proxy-error.ts";
import type { TextResponse } from "../text-response.ts";
import type { SharedRelay } from "../store/shared-relay.ts";
import type { ReplayCheck } from "../store/shared-replay-guard.ts";
import type { WebhookGate } from "./webhook-gate.ts";
import {
  isSignatureShaped,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  verifyWebhookSignature,
  WEBHOOK_TOLERANCE_SECONDS,
} from "./signature-check.ts";
import type { ProxyRequest } from "../proxy-request.ts";

export interface WebhookContext {
  secret: string;
  replays: ReplayCheck;
  relay: Pick<SharedRelay, "publish">;
  gate: WebhookGate;
  /** The record as browsers get it (see ApiContext.present). */
  present: (record: unknown) => string;
  /** Sees each accepted record (ended generations settle their credits). */
  observe?: (record: unknown) => Promise<void>;
  now?: () => number;
}

/** `client`: the rate limit's key of the sender. */
export async function receiveWebhook(ctx: WebhookContext, request: ProxyRequest, client: string): Promise<TextResponse> {
  if (request.method !== "POST") throw new ProxyError(405, "Webhooks are POSTed", { allow: "POST" });
  await ctx.gate.admit(client);
  ctx.gate.checkSize(request);
  checkTimestamp(request.headers.get(TIMESTAMP_HEADER), (ctx.now ?? Date.now)());
  const signature = request.headers.get(SIGNATURE_HEADER) ?? "";
  if (!isSignatureShaped(signature))
    throw new ProxyError(401, `${SIGNATURE_HEADER}: must be the hex HMAC-SHA256 of the body (64 hex digits)`);
  const raw = await ctx.gate.read(request);
  if (!(await verifyWebhookSignature(raw, signature, ctx.secret)))
    throw new ProxyError(401, `${SIGNATURE_HEADER}: does not match the body`);
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

function checkTimestamp(header: string | null, nowMs: number): void {
  const age = Math.abs(nowMs / 1000 - Number(header));
  if (header === null || header.trim() === "" || !Number.isFinite(age) || age > WEBHOOK_TOLERANCE_SECONDS)
    throw new ProxyError(
      401,
      `${TIMESTAMP_HEADER}: must be the Unix time in seconds, within ${WEBHOOK_TOLERANCE_SECONDS} s of now (is ${header === null ? "missing" : JSON.stringify(header.slice(0, 40))})`,
    );
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
