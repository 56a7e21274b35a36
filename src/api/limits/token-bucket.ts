/**
 * Rate limiting by token bucket, one bucket per key (a client address, an API key): `burst`
 * requests at once, refilled at `perSecond`. Used by the proxy (per client) and the local
 * service (its polling routes, per API key); each answers a refusal with 429 and
 * `Retry-After: retryAfter`. Buckets are computed lazily (no timers), and the map of keys is
 * bounded, forgetting the least recently seen key first. Browser-safe: no Node API.
 */
export interface TokenBucketOptions {
  /** Requests a key may make at once: the bucket's size, and a new key's tokens. */
  burst: number;
  /** Tokens given back a second. */
  perSecond: number;
  /**
   * Keys remembered at most; a forgotten key comes back with a full bucket.
   * @default Infinity
   */
  maxKeys?: number;
  /** The clock, in milliseconds. @default Date.now */
  now?: () => number;
}

export interface TokenDecision {
  ok: boolean;
  /** Whole seconds until one token is back, when refused (0 when allowed). */
  retryAfter: number;
}

export class TokenBucket {
  readonly burst: number;
  readonly perSecond: number;
  private readonly _maxKeys: number;
  private readonly _now: () => number;
  private readonly _buckets = new Map<string, { tokens: number; at: number }>();

  constructor(options: TokenBucketOptions) {
    this.burst = options.burst;
    this.perSecond = options.perSecond;
    this._maxKeys = options.maxKeys ?? Infinity;
    this._now = options.now ?? Date.now;
  }

  /** Takes a token for `key` when one is there. */
  take(key: string): TokenDecision {
    const now = this._now();
    const bucket = this._buckets.get(key) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    // Re-insert so the map's order is least recently seen first.
    this._buckets.delete(key);
    this._buckets.set(key, bucket);
    if (this._buckets.size > this._maxKeys) this._buckets.delete(this._buckets.keys().next().value!);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { ok: true, retryAfter: 0 };
    }
    return { ok: false, retryAfter: Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond)) };
  }
}
