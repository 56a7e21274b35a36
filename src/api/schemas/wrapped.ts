/**
 * Bodies that carry their record or list inside a wrapper on some routes or servers
 * (`{ request }`, `{ imagine }`, `{ data }`) and bare on others: read either way.
 */
import * as z from "zod/mini";

/** The value under the first of `keys` that the body has as an object, else the body itself. */
export function unwrap(body: unknown, keys: readonly string[]): unknown {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  for (const key of keys) {
    const inner = (body as Record<string, unknown>)[key];
    if (typeof inner === "object" && inner !== null) return inner;
  }
  return body;
}

/** `schema` read from the value under the first of `keys` the body has, or from the body itself. */
/* @__NO_SIDE_EFFECTS__ */
export function unwrapped<T extends z.ZodMiniType>(keys: readonly string[], schema: T) {
  return z.pipe(
    z.transform((body: unknown) => unwrap(body, keys)),
    schema,
  );
}

/** A list that may come bare or wrapped in `{ data }`. */
/* @__NO_SIDE_EFFECTS__ */
export const listOf = <T extends z.ZodMiniType>(item: T) => unwrapped(["data"], z.array(item));
