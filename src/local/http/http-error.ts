import { errorEnvelope, type ErrorEnvelope } from "../../api/protocol/error-envelope.ts";
import type { RuleIssue } from "../../api/rules/rule-issue.ts";
import { describeIssue } from "../../api/rules/rule-issue.ts";

/** An answer other than success: a status and the API's error envelope `{ error, issues? }`. */
export class HttpError extends Error {
  /** The rules the request broke, listed in the envelope's `issues`. */
  readonly issues: readonly RuleIssue[] | undefined;
  /** Headers the answer carries besides the envelope's (`retry-after`). */
  readonly headers: Record<string, string>;

  constructor(
    readonly status: number,
    message: string,
    options: { issues?: readonly RuleIssue[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.issues = options.issues;
    this.headers = options.headers ?? {};
  }

  get body(): ErrorEnvelope {
    return errorEnvelope(this.message, this.issues);
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
