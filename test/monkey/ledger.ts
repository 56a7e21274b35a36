/**
 * What a monkey run was told: every record the service acknowledged (answered 2xx about),
 * as last seen, and the deleted ones with what could be known of their refund. The checks
 * after a run compare the service against it.
 */
export type Json = Record<string, any>;

export const TERMINAL = new Set(["complete", "error", "abort"]);
export const LIVE = new Set(["pending", "dispatched", "processing"]);

export interface SeenGeneration {
  id: number;
  obfuscatedId: string;
  cost: number;
  model: 3 | 4;
  status: string;
  /** The user (proxy user header) that created it. */
  user: string;
  /** Deleted by the monkey: refunded when it was still live then. */
  deleted?: { wasLive: boolean | "unknown" };
}

export class Ledger {
  readonly generations = new Map<number, SeenGeneration>();
  readonly batches = new Map<number, { user: string }>();
  readonly exports = new Map<string, { user: string; status: string }>();
  /** Answers of 500 and above, and answers that broke the protocol: each a finding. */
  readonly failures: string[] = [];
  /** How many of each action ran. */
  readonly actions = new Map<string, number>();

  count(action: string): void {
    this.actions.set(action, (this.actions.get(action) ?? 0) + 1);
  }

  get total(): number {
    return [...this.actions.values()].reduce((a, b) => a + b, 0);
  }

  generation(g: Json, user: string, model?: 3 | 4): void {
    if (typeof g?.id !== "number") return;
    const known = this.generations.get(g.id);
    if (known) {
      if (!(TERMINAL.has(known.status) && !TERMINAL.has(g.status))) known.status = g.status;
      return;
    }
    this.generations.set(g.id, { id: g.id, obfuscatedId: g.obfuscated_id, cost: g.cost ?? 0, model: model ?? 3, status: g.status, user });
  }

  /** Generations of `user` in one of `statuses`, not deleted. */
  mine(user: string, statuses: Set<string>): SeenGeneration[] {
    return [...this.generations.values()].filter((g) => g.user === user && !g.deleted && statuses.has(g.status));
  }
}
