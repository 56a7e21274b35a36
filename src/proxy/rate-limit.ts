/**
 * A token bucket per client: `burst` requests at once, refilled at `perSecond`. Buckets are
 * computed lazily (no timers); the map is bounded, forgetting the least recently seen
 * client first.
 */
export interface RateLimitDecision {
  ok: boolean;
  /** Whole seconds until one token is back, when refused. */
  retryAfter: number;
}

export class RateLimiter {
  private readonly _buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly _burst: number,
    private readonly _perSecond: number,
    private readonly _maxClients: number,
    private readonly _now: () => number = Date.now,
  ) {}

  take(client: string): RateLimitDecision {
    const now = this._now();
    const bucket = this._buckets.get(client) ?? { tokens: this._burst, at: now };
    bucket.tokens = Math.min(this._burst, bucket.tokens + ((now - bucket.at) / 1000) * this._perSecond);
    bucket.at = now;
    // Re-insert so the map's order is least recently seen first.
    this._buckets.delete(client);
    this._buckets.set(client, bucket);
    if (this._buckets.size > this._maxClients) this._buckets.delete(this._buckets.keys().next().value!);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { ok: true, retryAfter: 0 };
    }
    return { ok: false, retryAfter: Math.max(1, Math.ceil((1 - bucket.tokens) / this._perSecond)) };
  }
}

/**
 * Who a request comes from: the last entry of the trusted header when configured, else the
 * socket address the adapter reports, else one shared bucket.
 */
export function clientOf(request: Request, clientAddress: string | undefined, header: string | null): string {
  if (header) {
    const last = request.headers.get(header)?.split(",").pop()?.trim();
    if (last) return last;
  }
  return clientAddress ?? "unknown";
}
