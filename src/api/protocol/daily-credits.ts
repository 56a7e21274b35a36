/**
 * The proxy's refusal of a generation or batch that would take a user past their daily
 * credits (`--user-daily-credits`): a 429 whose sentence names the limit and when it resets
 * (midnight UTC), with `Retry-After` until then. The proxy writes it, the client reads it as
 * a lack of credits rather than a burst of requests (it is no use retrying soon).
 */

/** The sentence of the refusal. `resetsAt` is the next midnight UTC. */
export function dailyCreditsMessage(limit: number, used: number, needed: number, resetsAt: Date): string {
  return `Your daily credit limit on this proxy is ${limit} credits: ${used} used today, and this request needs ${needed}. It resets at ${resetsAt.toISOString().replace(".000Z", "Z")} (midnight UTC).`;
}

/** The message is the daily-credit refusal. */
export function isDailyCreditsMessage(message: string): boolean {
  return message.startsWith("Your daily credit limit on this proxy is ");
}

/** Midnight UTC after `now`: when a UTC day's credits are counted afresh. */
export function nextUtcMidnight(now: number): Date {
  const d = new Date(now);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1));
}
