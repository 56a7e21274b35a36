import * as z from "zod/mini";
import { SkyboxApiError } from "../errors/skybox-api-error.ts";
import { endpointOf, type FixedRoute } from "../protocol/routes.ts";
import { quotedInput, ruleSentence } from "../errors/rule-sentence.ts";
import type { RuleIssue } from "../rules/rule-issue.ts";

/**
 * Parses request input with its schema, the way the client and the local service both do:
 * every issue says the rule in words (`must be an integer from 0 to 2147483647`) and keeps
 * the value it had, so `issuesFromZod` can quote it.
 */
export function safeParseRequest<S extends z.core.$ZodType>(schema: S, value: unknown): z.core.util.SafeParseResult<z.output<S>> {
  return z.safeParse(schema, value, { error: ruleSentence, reportInput: true });
}

/** Turns zod issues into rule issues, so type errors and rule errors read alike: `seed: must be … (is -5)`. */
export function issuesFromZod(error: z.core.$ZodError): RuleIssue[] {
  return error.issues.map((i) => ({
    path: i.path,
    rule: i.code,
    message: `${i.message}${quotedInput(i.input)}`,
    kind: "validation" as const,
  }));
}

/** Parses a route's request parameters with their schema, throwing a validation error naming each field. */
export function parseParams<S extends z.core.$ZodType>(schema: S, value: unknown, route: FixedRoute): z.output<S> {
  const parsed = safeParseRequest(schema, value);
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
