import { errorEnvelope, type ErrorEnvelope } from "../../api/protocol/error-envelope.ts";
import type { RuleIssue } from "../../api/rules/rule-issue.ts";
import { describeIssue } from "../../api/rules/rule-issue.ts";

/** An answer other than success: a status and the API's error envelope `{ error, issues? }`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: { issues?: readonly RuleIssue[] } = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  get body(): ErrorEnvelope {
    return errorEnvelope(this.message, this.details.issues);
  }
}

/**
 * Broken rules as one answer: the first issue's status (the spec's 403s) or 422. The spec's
 * own sentences stay word for word; other messages are prefixed with their field.
 */
export function ruleError(issues: RuleIssue[]): HttpError {
  const sentence = (i: RuleIssue) => (/^[A-Z]/.test(i.message) ? i.message : describeIssue(i));
  return new HttpError(issues[0]!.status ?? 422, issues.map(sentence).join("; "), { issues });
}

export const notFound = (what: string) => new HttpError(404, what);
