import type * as z from "zod";
import { SkyboxApiError } from "../errors/SkyboxApiError.ts";
import { endpointOf, type FixedRoute } from "../protocol/routes.ts";
import type { RuleIssue } from "../rules/rule-issue.ts";

/** Turns zod issues into rule issues, so type errors and rule errors read alike. */
export function issuesFromZod(error: z.ZodError): RuleIssue[] {
  return error.issues.map((i) => ({ path: i.path, rule: i.code, message: i.message, kind: "validation" as const }));
}

/** Parses a route's request parameters with their schema, throwing a validation error naming each field. */
export function parseParams<S extends z.ZodType>(schema: S, value: unknown, route: FixedRoute): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw failure(issuesFromZod(parsed.error), route);
  return parsed.data;
}

/** Throws when a rule check of a route's request found anything. */
export function assertRules(issues: RuleIssue[], route: FixedRoute): void {
  if (issues.length) throw failure(issues, route);
}

function failure(issues: RuleIssue[], route: FixedRoute): SkyboxApiError {
  const { method, path } = endpointOf(route, {});
  return SkyboxApiError.fromIssues(issues, method, path);
}
