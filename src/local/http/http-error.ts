import type { RuleIssue } from "../../api/rules/rule-issue.ts";
import { describeIssue } from "../../api/rules/rule-issue.ts";

/** An answer other than success: a status and a JSON body `{ error, ...details }`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  get body() {
    return { error: this.message, ...this.details };
  }
}

/**
 * Broken rules as one answer: the first issue's status (the spec's 403s) or 422. The spec's
 * own sentences stay word for word; other messages are prefixed with their field.
 */
export function ruleError(issues: RuleIssue[]): HttpError {
  const sentence = (i: RuleIssue) => (/^[A-Z]/.test(i.message) ? i.message : describeIssue(i));
  return new HttpError(issues[0]!.status ?? 422, issues.map(sentence).join("; "), {
    issues: issues.map((i) => ({ path: i.path.map(String), rule: i.rule, message: i.message, ...(i.limit === undefined ? {} : { limit: i.limit }) })),
  });
}

export const notFound = (what: string) => new HttpError(404, what);
