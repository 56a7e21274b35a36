/**
 * Remembers the signatures of accepted webhooks so a replayed body is refused. The spec's
 * signature covers the body only, not `x-timestamp`, so a captured body could come back with
 * a fresh timestamp: entries live twice the age tolerance, and a body that is resent after
 * that is at worst a status update relayed twice (receivers order by `updated_at`). Memory
 * is bounded; only validly signed bodies are remembered, so nobody without the secret can
 * fill it.
 */
export class ReplayGuard {
  /** signature → expiry (ms); insertion order is expiry order. */
  private readonly _seen = new Map<string, number>();

  constructor(
    private readonly _ttlMs: number,
    private readonly _max = 10_000,
    private readonly _now: () => number = Date.now,
  ) {}

  /** True the first time `key` is seen within its lifetime, false for a replay. */
  firstSeen(key: string): boolean {
    const now = this._now();
    for (const [k, expires] of this._seen) {
      if (expires > now) break;
      this._seen.delete(k);
    }
    if (this._seen.has(key)) return false;
    this._seen.set(key, now + this._ttlMs);
    if (this._seen.size > this._max) this._seen.delete(this._seen.keys().next().value!);
    return true;
  }

  /** Forgets `key`, so it is accepted again (its relay failed; the sender will retry). */
  forget(key: string): void {
    this._seen.delete(key);
  }
}
