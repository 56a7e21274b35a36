/**
 * The webhook replay guard on the proxy's store: a signature accepted by one instance is
 * refused by every other (a claim in the store has one winner). A claim whose relay failed
 * is forgotten, so the sender's retry is accepted.
 */
import type { ProxyStore } from "./proxy-store.ts";

export interface ReplayCheck {
  /** True the first time `key` is seen within its lifetime, false for a replay. */
  firstSeen(key: string): Promise<boolean>;
  forget(key: string): Promise<void>;
}

export function sharedReplayGuard(store: ProxyStore, ttlMs: number): ReplayCheck {
  return {
    firstSeen: (key) => store.claim(`replay:${key}`, ttlMs),
    forget: (key) => store.release(`replay:${key}`),
  };
}
