import { isSkyboxApiError } from "../api/errors/skybox-api-error.ts";
import type { ErrorKind } from "../api/errors/error-kind.ts";

/**
 * The polling interval while no push source is live: it doubles while nothing changes
 * (1 s, 2 s, 4 s, ... up to the cap) and falls back to the first after a change.
 */
export class PollBackoff {
  private _ms: number;

  constructor(
    private readonly _firstMs: number,
    private readonly _maxMs: number,
  ) {
    this._ms = _firstMs;
  }

  get ms(): number {
    return this._ms;
  }

  reset(): void {
    this._ms = this._firstMs;
  }

  grow(): void {
    this._ms = Math.min(this._maxMs, this._ms * 2);
  }
}

/** Failures a later poll may not meet: the watch keeps going (push may still work). */
const TRANSIENT: readonly ErrorKind[] = ["network", "timeout", "unavailable", "rate_limited", "invalid_response"];

export function isTransient(error: unknown): boolean {
  return isSkyboxApiError(error) && TRANSIENT.includes(error.kind);
}

/** Milliseconds the server asked us to wait (429 or 503 with Retry-After), else 0. */
export function retryAfterMs(error: unknown): number {
  return isSkyboxApiError(error) && error.retryAfter != null ? Math.max(0, error.retryAfter * 1000) : 0;
}
