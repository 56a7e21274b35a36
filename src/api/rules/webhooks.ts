/**
 * The spec's webhook rules: the signature travels in `x-signature` (hex HMAC-SHA256 of the
 * raw body keyed with the API secret) beside `x-timestamp` (Unix seconds); a receiver
 * rejects a timestamp more than 300 s away; failed deliveries are retried at most 5 times.
 * The HMAC itself is `signWebhook` (webhook-signature.ts).
 */
export const WEBHOOK_SIGNATURE_HEADER = "x-signature";
/** The header of a webhook's Unix time in seconds; a webhook too far from now is refused. */
export const WEBHOOK_TIMESTAMP_HEADER = "x-timestamp";
/** How far a webhook's timestamp may be from now, in seconds. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * Delay before retry n (1-based) after a failed attempt. The first four are the spec's; the
 * spec leaves the fifth out, and 6 hours continues its growth (x5, x3, x4, x6).
 */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [60_000, 300_000, 900_000, 3_600_000, 21_600_000];
