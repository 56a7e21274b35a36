/**
 * A token bucket per API key for the polling routes, which the spec warns can trigger the
 * rate limiter. `perMinute` requests a minute, in bursts of up to a tenth of that (at
 * least 5); past it, a 429 with the seconds until the next token in Retry-After.
 */
export class RateLimiter {
  private readonly _buckets = new Map<string, { tokens: number; at: number }>();
  private readonly _capacity: number;
  private readonly _perMs: number;

  constructor(readonly perMinute: number) {
    this._capacity = Math.max(5, Math.round(perMinute / 10));
    this._perMs = perMinute / 60_000;
  }

  /** 0 when allowed (a token is taken), else seconds to wait. */
  take(key: string, now = Date.now()): number {
    const bucket = this._buckets.get(key) ?? { tokens: this._capacity, at: now };
    bucket.tokens = Math.min(this._capacity, bucket.tokens + (now - bucket.at) * this._perMs);
    bucket.at = now;
    this._buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this._perMs / 1000));
  }
}

export const DEFAULT_POLL_RATE_PER_MINUTE = 600;
