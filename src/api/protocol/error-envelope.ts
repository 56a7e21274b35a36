/**
 * The body of every error answer the local service and the proxy write, and the client
 * reads: `{ "error": "<sentence>", "issues"?: [{ path, rule, message, limit? }] }`. Loose,
 * since the real service may add fields; `issues` names each broken rule, with the number
 * it holds a field to where it has one, so no reader parses the sentence.
 */
import * as z from "zod/mini";
import type { RuleIssue } from "../rules/rule-issue.ts";

/** One broken rule as it travels. */
export const WireIssue = z.looseObject({
  /** The offending field, as in a zod issue (`["depth_scale"]`). */
  path: z.array(z.union([z.string(), z.number()])),
  /** Short rule name, stable for tests and UIs (`depth-scale-range`). */
  rule: z.string(),
  message: z.string(),
  /** The number the rule holds the field to (a batch's credit cap). */
  limit: z.optional(z.number()),
});
export type WireIssue = z.infer<typeof WireIssue>;

/** The error body the local service and the proxy write and the client reads: `{ error, issues? }`. */
export const ErrorEnvelope = z.looseObject({
  /** What went wrong, in a sentence a person reads. */
  error: z.string(),
  issues: z.optional(z.array(WireIssue)),
});
/** The error body `{ error, issues? }` (see the schema of the same name). */
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

const wireIssue = (i: RuleIssue): WireIssue => ({
  path: i.path.map(String),
  rule: i.rule,
  message: i.message,
  ...(i.limit === undefined ? {} : { limit: i.limit }),
});

/** The error body for a message and the rules it reports broken (none: no `issues`). */
export function errorEnvelope(message: string, issues: readonly RuleIssue[] = []): ErrorEnvelope {
  return { error: message, ...(issues.length ? { issues: issues.map(wireIssue) } : {}) };
}

const WithIssues = z.pick(ErrorEnvelope, { issues: true });

/** The issues of an error body; none when it has none or they are not the envelope's. */
export function issuesOf(body: unknown): WireIssue[] {
  const parsed = WithIssues.safeParse(body);
  return parsed.success ? (parsed.data.issues ?? []) : [];
}
