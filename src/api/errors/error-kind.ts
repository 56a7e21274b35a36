import { isDailyCreditsMessage } from "../protocol/daily-credits.ts";

/** What went wrong, as a caller decides what to do about it. */
export const ERROR_KINDS = [
  "unauthorized",
  "subscription_required",
  "plan_forbidden",
  "not_found",
  "conflict",
  "validation",
  "insufficient_credits",
  "rate_limited",
  "unavailable",
  "network",
  "invalid_response",
  "aborted",
  "timeout",
] as const;
/** What kind of failure a `SkyboxApiError` is; the pane gives each kind its own sentence. */
export type ErrorKind = (typeof ERROR_KINDS)[number];

/**
 * Derives the kind from the status and, where one status covers several causes (403,
 * 422), from the spec's messages.
 */
export function errorKindOf(status: number, message: string): ErrorKind {
  const m = message.toLowerCase();
  if (status === 401) return "unauthorized";
  if (status === 403) return m.includes("subscription") ? "subscription_required" : "plan_forbidden";
  if (status === 404) return "not_found";
  if (status === 409) return "conflict";
  if (status === 429) return isDailyCreditsMessage(message) ? "insufficient_credits" : "rate_limited";
  if (status === 402 || m.includes("credits remaining")) return "insufficient_credits";
  if (m.includes("plan limit") || m.includes("overage billing") || m.includes("current plan")) return "plan_forbidden";
  if (status === 400 || status === 413 || status === 422) return "validation";
  if (status >= 500) return "unavailable";
  return "validation";
}
