/**
 * The receiver's check of a webhook signature (`x-signature`, beside `x-timestamp` in Unix
 * seconds): the spec's signature (src/api) compared in constant time.
 */
import { timingSafeEqual } from "node:crypto";
import { signWebhook } from "../../api/rules/webhook-signature.ts";

export {
  WEBHOOK_SIGNATURE_HEADER as SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER as TIMESTAMP_HEADER,
  WEBHOOK_TOLERANCE_SECONDS,
} from "../../api/rules/webhooks.ts";

/** True when a received signature has the shape of one (64 hex digits): checked before any body is read. */
export function isSignatureShaped(signature: string): boolean {
  return /^[0-9a-f]{64}$/i.test(signature.trim());
}

/** Constant-time comparison of a received signature with the body's. */
export async function verifyWebhookSignature(rawBody: Uint8Array | string, signature: string, secret: string): Promise<boolean> {
  const expected = Buffer.from(await signWebhook(rawBody, secret), "hex");
  const given = isSignatureShaped(signature) ? Buffer.from(signature.trim(), "hex") : null;
  return given !== null && timingSafeEqual(expected, given);
}
