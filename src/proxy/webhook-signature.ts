/**
 * The Skybox API's webhook signature, checked by the receiver: hex HMAC-SHA256 over the raw
 * body, keyed with the API secret, in `x-signature`, beside `x-timestamp` (Unix seconds).
 * Kept here (node:crypto) rather than shared with src/local: the proxy must not import the
 * local service.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export {
  WEBHOOK_SIGNATURE_HEADER as SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER as TIMESTAMP_HEADER,
  WEBHOOK_TOLERANCE_SECONDS,
} from "../api/rules/webhooks.ts";

/** Hex HMAC-SHA256 of the raw body. */
export function signWebhook(rawBody: Uint8Array | string, secret: string): string {
  return createHmac("sha256", secret).update(rawBody).digest("hex");
}

/** Constant-time comparison of a received signature with the body's. */
export function verifyWebhookSignature(rawBody: Uint8Array | string, signature: string, secret: string): boolean {
  const expected = Buffer.from(signWebhook(rawBody, secret), "hex");
  const given = /^[0-9a-f]{64}$/i.test(signature.trim()) ? Buffer.from(signature.trim(), "hex") : null;
  return given !== null && timingSafeEqual(expected, given);
}
