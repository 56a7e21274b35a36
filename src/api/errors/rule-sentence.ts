/**
 * What a field must be, in the words a person reads: the zod error map the client and the
 * local service parse requests with. zod applies it only where a schema gave no message of
 * its own, so the schemas' sentences ("must be an http(s) URL") stay as written.
 *   seed: must be an integer from 0 to 2147483647 (is -5)
 */
import type * as z from "zod/mini";

type RawIssue = Parameters<z.core.$ZodErrorMap>[0];

const ARTICLE: Record<string, string> = { integer: "an", object: "an", array: "an", int: "an" };
const noun = (type: string) => `${ARTICLE[type] ?? "a"} ${type === "int" ? "integer" : type}`;

/** Bounds of a size check, by what they bound: a number's value, a text's length, a list's items. */
function bound(origin: string | undefined, limit: number | bigint, inclusive: boolean | undefined, most: boolean): string {
  const side = most ? (inclusive === false ? "less than" : "at most") : inclusive === false ? "more than" : "at least";
  if (origin === "string") return `must have ${side} ${limit} characters`;
  if (origin === "array" || origin === "set") return `must have ${side} ${limit} items`;
  if (origin === "file") return `must be ${side} ${limit} bytes`;
  return `must be ${side} ${limit}`;
}

function first(issue: RawIssue & { errors?: unknown[][] }): string | undefined {
  const branch = issue.errors?.[0]?.[0] as { message?: string } | undefined;
  return branch?.message;
}

/** The rule a zod issue broke, as a sentence without its field (the caller prefixes the field). */
export const ruleSentence: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case "invalid_type":
      return issue.input === undefined ? "is required" : `must be ${noun(String(issue.expected))}`;
    case "too_small":
      return bound(issue.origin, issue.minimum, issue.inclusive, false);
    case "too_big":
      return bound(issue.origin, issue.maximum, issue.inclusive, true);
    case "invalid_value":
      return `must be one of ${(issue.values as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    case "invalid_format":
      return `must be a valid ${String(issue.format)}`;
    case "not_multiple_of":
      return `must be a multiple of ${String(issue.divisor)}`;
    case "unrecognized_keys":
      return `has unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.join(", ")}`;
    case "invalid_union":
      return first(issue) ?? "is not any of the accepted forms";
    default:
      return undefined;
  }
};

/** ` (is -5)`: the value a field had, quoted when it is short and simple; nothing otherwise (never a file's bytes). */
export function quotedInput(input: unknown): string {
  if (typeof input === "number" || typeof input === "boolean") return ` (is ${input})`;
  if (typeof input === "string" && input.length <= 40) return ` (is ${JSON.stringify(input)})`;
  return "";
}
