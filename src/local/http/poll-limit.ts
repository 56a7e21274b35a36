/**
 * The rate limit of the polling routes, which the spec warns can trigger the rate limiter:
 * `perMinute` requests a minute per API key, in bursts of up to a tenth of that (at least 5);
 * past it, a 429 with the seconds until the next token in Retry-After.
 */
import { TokenBucket } from "../../api/limits/token-bucket.ts";

export const DEFAULT_POLL_RATE_PER_MINUTE = 600;

export interface PollLimit {
  /** The rate, as the 429's message states it. */
  perMinute: number;
  /** One bucket per API key (accounts are few: no bound on keys). */
  buckets: TokenBucket;
}

export function pollLimit(perMinute: number): PollLimit {
  return { perMinute, buckets: new TokenBucket({ burst: Math.max(5, Math.round(perMinute / 10)), perSecond: perMinute / 60 }) };
}
