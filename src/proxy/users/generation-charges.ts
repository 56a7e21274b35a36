/**
 * Each user's spend in the current UTC day, and the generations still open: every
 * generation created through the proxy carries its price (a charge) until it ends. A
 * request is priced and reserved before it is forwarded (atomically across instances, so
 * two instances cannot both grant the last credits); the create response turns the
 * reservation into one charge per generation, and gives back what was not created. An
 * aborted or errored generation gives its credits back, exactly once, whichever instance
 * sees it end first (a webhook, a poll, a list).
 *
 * Open generations are also what "cancel my pending generations" cancels.
 */
import { dailyCreditsMessage, nextUtcMidnight } from "../../api/protocol/daily-credits.ts";
import { isRequestTerminal } from "../../api/protocol/statuses.ts";
import { ProxyError } from "../proxy-error.ts";
import type { ProxyStore } from "../store/proxy-store.ts";

export interface Reservation {
  user: string;
  day: string;
  credits: number;
}

interface Charge {
  user: string;
  day: string;
  credits: number;
}

/** A day's counter outlives the day, so late refunds still find it. */
const SPEND_TTL_MS = 2 * 24 * 3600_000;
/** A generation open longer than this is no longer followed. */
const CHARGE_TTL_MS = 7 * 24 * 3600_000;
/** Generations looked at when a user's open list is reconciled or cancelled. */
export const MAX_OPEN = 100;

const spendKey = (day: string, user: string) => `spend:${day}:${user}`;
const chargeKey = (id: string) => `charge:${id}`;
const openKey = (user: string) => `open:${user}`;
const dayOf = (now: number) => new Date(now).toISOString().slice(0, 10);

export class GenerationCharges {
  /** Ids known to have ended on this instance: seen again, they cost no store call. */
  private readonly _ended = new Set<string>();

  /** @param _limit credits a user may spend a day (null: counted, not capped) */
  constructor(
    private readonly _store: ProxyStore,
    private readonly _limit: number | null,
    private readonly _now: () => number = Date.now,
  ) {}

  get capped(): boolean {
    return this._limit !== null;
  }

  /**
   * Reserves `credits` for `user` today, or refuses with 429. Before refusing, `reconcile`
   * reads the user's open generations again (settling those that ended unheard of), and the
   * reservation is tried once more.
   */
  async reserve(user: string, credits: number, reconcile: (openIds: string[]) => Promise<void>): Promise<Reservation> {
    const day = dayOf(this._now());
    // Even uncapped, the counter is touched: with the store away, nothing is created that could not be owned.
    let added = await this._store.addWithin(spendKey(day, user), credits, this._limit, SPEND_TTL_MS);
    if (!added.ok && this._limit !== null) {
      // Credits of generations that ended without our hearing may be due back.
      await reconcile(await this.openOf(user));
      added = await this._store.addWithin(spendKey(day, user), credits, this._limit, SPEND_TTL_MS);
    }
    if (added.ok || this._limit === null) return { user, day, credits };
    const resets = nextUtcMidnight(this._now());
    throw new ProxyError(429, dailyCreditsMessage(this._limit, added.value, credits, resets), {
      "retry-after": String(Math.ceil((resets.getTime() - this._now()) / 1000)),
    });
  }

  /** Gives back `credits` of a reservation (the request failed, or made fewer generations). */
  async release(reservation: Reservation, credits = reservation.credits): Promise<void> {
    if (credits > 0) await this._store.addWithin(spendKey(reservation.day, reservation.user), -credits, null, SPEND_TTL_MS);
  }

  /** The create response names these generations, each costing `each`: they become charges, the rest goes back. */
  async commit(reservation: Reservation, generationIds: readonly string[], each: number): Promise<void> {
    const charged = reservation.credits === 0 ? 0 : each;
    const charge: Charge = { user: reservation.user, day: reservation.day, credits: charged };
    await this._store.put(
      generationIds.map((id) => [chargeKey(id), JSON.stringify(charge)] as const),
      CHARGE_TTL_MS,
    );
    await Promise.all(generationIds.map((id) => this._store.indexAdd(openKey(reservation.user), id, this._now())));
    await this.release(reservation, reservation.credits - charged * generationIds.length);
  }

  /** A generation seen with `status` (as its record holds it): when it ended, its charge ends once, its credits back for abort and error. */
  async settle(id: string, status: unknown): Promise<void> {
    if (typeof status !== "string" || !isRequestTerminal(status) || this._ended.has(id)) return;
    const text = await this._store.take(chargeKey(id));
    this._remember(id);
    if (!text) return;
    const charge = JSON.parse(text) as Charge;
    await this._store.indexRemove(openKey(charge.user), [id]);
    if (status !== "complete" && charge.credits > 0)
      await this._store.addWithin(spendKey(charge.day, charge.user), -charge.credits, null, SPEND_TTL_MS);
  }

  /** The user's open generations, oldest first; those whose charge expired are dropped. */
  async openOf(user: string): Promise<string[]> {
    const { members } = await this._store.indexPage(openKey(user), 0, MAX_OPEN, false);
    const charges = await this._store.get(members.map(chargeKey));
    const gone = members.filter((_, i) => charges[i] === null);
    if (gone.length) await this._store.indexRemove(openKey(user), gone);
    return members.filter((_, i) => charges[i] !== null);
  }

  private _remember(id: string): void {
    this._ended.add(id);
    if (this._ended.size > 10_000) this._ended.delete(this._ended.values().next().value!);
  }
}
