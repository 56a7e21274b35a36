import type * as z from "zod";
import { issuesFromZod } from "../../api/client/validate.ts";
import { ruleError } from "./http-error.ts";

/** Parses request input with its API schema; a failure is a 422 naming each field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw ruleError(issuesFromZod(parsed.error));
  return parsed.data;
}

/** Query parameters as a plain object (repeated keys keep their last value). */
export const queryObject = (url: string) => Object.fromEntries(new URL(url).searchParams);
