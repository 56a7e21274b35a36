/**
 * The Skybox API's webhook signature: hex HMAC-SHA256 over the raw request body, keyed with
 * the account's API secret, sent in `x-signature` beside `x-timestamp` (Unix seconds).
 */
import { createHmac } from "node:crypto";

export { WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER } from "../api/rules/webhooks.ts";

/** Hex HMAC-SHA256 of `rawBody` (UTF-8) keyed with `secret`. */
export function signWebhook(rawBody: string, secret: string): string {
  return createHmac("sha256", secret).update(rawBody, "utf8").digest("hex");
}
