/**
 * A request the service refuses, in the domain's own terms: something it names does not
 * exist (or is not the caller's), it breaks rules of the spec, or the caller's credits do
 * not cover it. The domain (lifecycle, records) throws these and never speaks HTTP; the
 * HTTP layer turns them into its answers in one place (http/domain-answer.ts).
 */
import { describeIssue, type RuleIssue } from "../../api/rules/rule-issue.ts";

export type DomainErrorKind = "not-found" | "broken-rules" | "insufficient-credits";

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** The broken rules, for "broken-rules". */
    readonly issues: readonly RuleIssue[] = [],
  ) {
    super(message);
  }
}

/** `what` names something that does not exist or is not the caller's. */
export const notFound = (what: string) => new DomainError("not-found", what);

/** The request breaks these rules (at least one). */
export const brokenRules = (issues: readonly RuleIssue[]) => new DomainError("broken-rules", issues.map(describeIssue).join("; "), issues);
