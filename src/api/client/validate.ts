import type * as z from "zod";
import { SkyboxApiError } from "../errors/SkyboxApiError.ts";
import type { RuleIssue } from "../rules/rule-issue.ts";

/** Turns zod issues into rule issues, so type errors and rule errors read alike. */
export function issuesFromZod(error: z.ZodError): RuleIssue[] {
  return error.issues.map((i) => ({ path: i.path, rule: i.code, message: i.message, kind: "validation" as const }));
}

/** Parses request parameters with their schema, throwing a validation error naming each field. */
export function parseParams<S extends z.ZodType>(schema: S, value: unknown, method: string, path: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw SkyboxApiError.fromIssues(issuesFromZod(parsed.error), method, path);
  return parsed.data;
}

/** Throws when a rule check found anything. */
export function assertRules(issues: RuleIssue[], method: string, path: string): void {
  if (issues.length) throw SkyboxApiError.fromIssues(issues, method, path);
}
