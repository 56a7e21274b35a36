/**
 * What the proxy remembers beyond one request, behind one small interface with two
 * implementations: in this process's memory (one instance) or in Redis (every instance of a
 * deployment shares it). The proxy's features (rate limit, replay guard, ownership ledger,
 * daily credits, webhook relay) are written against these primitives only and never know
 * which store they run on. Every operation either resolves or rejects with
 * {@link StoreUnavailableError} within the store's deadline: none hangs.
 */
import type { TokenDecision } from "../../api/limits/token-bucket.ts";
import { ProxyError } from "../proxy-error.ts";

export type { TokenDecision };

/** What the proxy keeps between requests (relay, rate limits, replay guard, ownership ledger, spend): in memory or in Redis. */
export interface ProxyStore {
  /** "memory" or "redis": for logs and `/config`-free diagnostics only; no feature branches on it. */
  readonly kind: string;

  /** Takes a token from the bucket `key` (`burst` at once, refilled at `perSecond`), atomically for every instance. */
  takeToken(key: string, burst: number, perSecond: number): Promise<TokenDecision>;

  /** True the first time `key` is claimed within `ttlMs`, false while a claim is alive (one winner across instances). */
  claim(key: string, ttlMs: number): Promise<boolean>;
  /** Forgets a claim (its work failed and may be tried again). */
  release(key: string): Promise<void>;

  /** Sets values (kept forever without `ttlMs`). */
  put(entries: ReadonlyArray<readonly [key: string, value: string]>, ttlMs?: number): Promise<void>;
  /** Values of `keys`, null where there is none. */
  get(keys: readonly string[]): Promise<(string | null)[]>;
  /** Reads and deletes a value in one step: of two callers, only one gets it. */
  take(key: string): Promise<string | null>;

  /**
   * Adds `amount` to the counter `key` unless that takes it past `ceiling` (null: no
   * ceiling); a negative amount on a counter that has expired does nothing. `ttlMs` is set
   * on every change. Atomic across instances.
   * @returns whether it was added, and the counter's value after
   */
  addWithin(key: string, amount: number, ceiling: number | null, ttlMs: number): Promise<{ ok: boolean; value: number }>;

  /** Puts `member` into the ordered index `key` at `score` (again: moves it). */
  indexAdd(key: string, member: string, score: number): Promise<void>;
  /** Takes `members` out of the ordered index `key`. */
  indexRemove(key: string, members: readonly string[]): Promise<void>;
  /** Members from `offset`, at most `count`, by score (`desc`: highest first), and how many the index holds. */
  indexPage(key: string, offset: number, count: number, desc: boolean): Promise<{ members: string[]; total: number }>;

  /** Sends `message` to every subscriber of `topic` on every instance, this one included. Resolves with how many received it. */
  publish(topic: string, message: string): Promise<number>;
  /**
   * Receives the messages of `topic`, each once. `onGap` is called when messages may have
   * been missed (the connection to the shared store dropped); `onMessage` may return how
   * many it delivered, which `publish` adds up where it can count.
   * @returns a function that ends the subscription
   */
  subscribe(topic: string, onMessage: (message: string) => number | void, onGap?: () => void): () => void;

  /** Ends connections and timers. */
  close(): Promise<void>;
}

/**
 * The store could not respond (Redis unreachable or too slow). Whatever needed it fails
 * closed: the request gets a 503 with this sentence, and nothing is served that the
 * store would have had to allow. `detail` (what Redis said) is for logs, not browsers.
 */
export class StoreUnavailableError extends ProxyError {
  readonly detail: string;

  /** The 503 the proxy responds with while its store cannot be reached; `detail` says why, for the log. */
  constructor(detail: string) {
    super(
      503,
      "The Skybox proxy cannot reach its shared store (Redis) right now, so it serves nothing that depends on it. Try again in a few seconds.",
      { "retry-after": "5" },
    );
    this.detail = detail;
  }
}
