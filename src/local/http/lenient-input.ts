import type { Context } from "hono";
import type * as z from "zod/mini";
import type { AppEnv, ServiceContext } from "./context.ts";
import { parseInput, queryObject } from "./parse-input.ts";

/** Names the key travels under; authentication has read it, so it is not an unknown field. */
const KEY_FIELD = "api_key";

/**
 * Request input read the way the real service (a Laravel application) reads it: fields the
 * API does not know are ignored, not refused, and named in a debug log line (names only,
 * never values); every field it knows is still checked, and a bad value is a 422 naming the
 * field and the rule.
 */
export function parseApiInput<S extends z.ZodMiniObject>(
  schema: S,
  input: Record<string, unknown>,
  ignored: (names: string[]) => void,
): z.output<S> {
  const known = (name: string) => Object.hasOwn(schema.shape, name);
  const unknown = Object.keys(input).filter((name) => !known(name) && name !== KEY_FIELD);
  if (unknown.length) ignored(unknown);
  return parseInput(schema, Object.fromEntries(Object.entries(input).filter(([name]) => known(name))));
}

/** The debug line for fields a request sent that the API does not know. */
export const logIgnored = (ctx: Pick<ServiceContext, "debug">, c: Context<AppEnv>) => (names: string[]) =>
  ctx.debug(`${c.req.method} ${c.req.path}: ignored unknown field${names.length > 1 ? "s" : ""} ${names.join(", ")}`);

/** The request's query, read leniently with `schema`. */
export const queryInput = <S extends z.ZodMiniObject>(ctx: Pick<ServiceContext, "debug">, c: Context<AppEnv>, schema: S): z.output<S> =>
  parseApiInput(schema, queryObject(c.req.url), logIgnored(ctx, c));

/** The request's body (read once by authentication), read leniently with `schema`. */
export const bodyInput = <S extends z.ZodMiniObject>(
  ctx: Pick<ServiceContext, "debug">,
  c: Context<AppEnv>,
  schema: S,
  extra: Record<string, unknown> = {},
): z.output<S> => parseApiInput(schema, { ...extra, ...c.get("body") }, logIgnored(ctx, c));
