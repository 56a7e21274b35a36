/**
 * The proxy command's `--rate-limit`: `PER_SECOND[/BURST]` requests per client (the burst
 * twelve seconds' worth unless given, the proportion of the defaults), or `off`.
 */
import type { RateLimitOptions } from "../proxy/proxy-options.ts";

export const RATE_LIMIT_USAGE = "[--rate-limit PER_SECOND[/BURST]|off]";

/** The proxy's `rateLimit` option for the flag's value; undefined keeps the default. */
export function rateLimitOf(value: string | undefined): RateLimitOptions | false | undefined {
  if (value === undefined) return undefined;
  if (value === "off") return false;
  const m = /^(\d+(?:\.\d+)?)(?:\/(\d+))?$/.exec(value);
  const perSecond = Number(m?.[1]);
  if (!m || !(perSecond > 0)) throw new Error(`--rate-limit must be PER_SECOND[/BURST] or off, not ${value}`);
  return { perSecond, burst: m[2] ? Number(m[2]) : Math.max(1, Math.round(perSecond * 12)) };
}
