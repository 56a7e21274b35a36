/**
 * What a refused request teaches the pane about the account's plan, read from structured
 * data only: the error's kind and status, and the rule issues the service sent (never the
 * wording of its message). Pure, so the learning is testable without a service.
 */
import { batchCapOf, isSkyboxApiError } from "../../../api/index.ts";
import { describeError } from "../../error-text.ts";

/** A plan feature the service can refuse as a whole. */
export type PlanFeature = "model4" | "batch";

/** Told when the service refuses something because of the plan, so the pane can grey it out. */
export type PlanRefusal = { what: PlanFeature; reason: string };

/** What one refusal teaches: the plan's credits per batch, or that a feature is refused; null when nothing. */
export type PlanLesson = { batchCap: number } | { refusal: PlanRefusal } | null;

/**
 * @param error what the request threw
 * @param feature the feature a 403 on this request takes away, or null when such a refusal says nothing general
 * @returns the lesson, or null
 */
export function lessonOf(error: unknown, feature: PlanFeature | null): PlanLesson {
  if (!isSkyboxApiError(error) || error.kind !== "plan_forbidden") return null;
  // Over the per-batch cap: the cap, not a ban (the issue carries it as its limit).
  const cap = batchCapOf(error.issues);
  if (cap !== null) return { batchCap: cap };
  // A 403 is the plan itself refusing the feature (batches, or Model 4).
  if (!feature || error.status !== 403) return null;
  const shown = describeError(error, "");
  return { refusal: { what: feature, reason: shown.serverMessage ?? shown.message } };
}
