import type { ErrorKind } from "../errors/error-kind.ts";

/**
 * One broken rule of the spec: which field, which rule, in words, and what kind of error
 * the service answers with. The client throws these before sending; the local service
 * answers them with the matching status.
 */
export interface RuleIssue {
  /** Path of the offending field, as in a zod issue (`["depth_scale"]`). */
  path: PropertyKey[];
  /** Short rule name, stable for tests and UIs (`depth-scale-range`). */
  rule: string;
  message: string;
  kind: ErrorKind;
  /** The HTTP status the spec answers this with, where it is not 422. */
  status?: number;
  /** The number the rule holds the field to, where it has one (a batch's credit cap): structured, so no UI reads it out of the wording. */
  limit?: number;
}

/** Makes the `RuleIssue` of a broken rule: the field, the rule's name and a sentence. */
export function issue(field: string, rule: string, message: string, kind: ErrorKind = "validation", status?: number): RuleIssue {
  return { path: [field], rule, message, kind, ...(status ? { status } : {}) };
}

/** `depth_scale: must be between 3 and 10 (depth-scale-range)` */
export function describeIssue(i: RuleIssue): string {
  const where = i.path.length ? `${i.path.map(String).join(".")}: ` : "";
  return `${where}${i.message}`;
}
