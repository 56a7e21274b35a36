import type * as z from "zod/mini";
import { issuesFromZod, safeParseRequest } from "../../api/client/validate.ts";
import { describeIssue } from "../../api/rules/rule-issue.ts";
import { HttpError } from "./http-error.ts";

/** Parses request input with its API schema; a failure is a 422 whose message names each field and what it must be. */
export function parseInput<S extends z.core.$ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = safeParseRequest(schema, input);
  if (parsed.success) return parsed.data;
  const issues = issuesFromZod(parsed.error);
  throw new HttpError(422, issues.map(describeIssue).join("; "), { issues });
}

/** Query parameters as a plain object (repeated keys keep their last value). */
export const queryObject = (url: string) => Object.fromEntries(new URL(url).searchParams);
