/**
 * Field builders shared by every response schema. Real responses send numbers as strings
 * ("max-char": "600"), 0/1 for booleans and `null` where the spec says "not shown", so the
 * schemas coerce those instead of failing.
 *
 * Every schema of `src/api` is built with `zod/mini`: the same objects serve the browser,
 * the proxy and the local service, and the browser bundle stays small (zod/mini tree-shakes
 * to what the schemas use). Node-only code may wrap them with classic zod's functions.
 *
 * Top-level schemas and the calls that build them are marked pure (`@__PURE__`,
 * `@__NO_SIDE_EFFECTS__`), so a bundler drops those an app does not use.
 */
import * as z from "zod/mini";

/** A finite number, also when sent as a numeric string. */
export const num = z.union(
  [
    z.number(),
    z.pipe(
      /* @__PURE__ */ z
        .string()
        .check(z.trim(), z.regex(/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/, { error: "expected a number or a numeric string" })),
      z.transform(Number),
    ),
  ],
  { error: "must be a number" },
);

/** An integer, also when sent as a numeric string. */
export const int = z.pipe(num, /* @__PURE__ */ z.int({ error: "must be an integer" }));

/**
 * A number from `min` to `max`, also sent as a numeric string: one sentence for the whole
 * rule, whichever end it breaks (`must be a number from 0 to 1`).
 */
/* @__NO_SIDE_EFFECTS__ */
export const numberFrom = (min: number, max: number) => {
  const rule = `must be a number from ${min} to ${max}`;
  return z.pipe(num, z.number().check(z.gte(min, { error: rule }), z.lte(max, { error: rule })));
};

/** An integer from `min` to `max` (`max` may be Infinity), also sent as a numeric string, with one sentence for the rule. */
/* @__NO_SIDE_EFFECTS__ */
export const integerFrom = (min: number, max = Infinity) => {
  const rule = max === Infinity ? `must be an integer of at least ${min}` : `must be an integer from ${min} to ${max}`;
  return z.pipe(num, z.int({ error: rule }).check(z.gte(min, { error: rule }), z.lte(max, { error: rule })));
};

/** How booleans are spelled in forms and queries: C#'s `True`, PHP's `1`, an HTML checkbox's `on`. */
const FLAG_WORDS: Readonly<Record<string, boolean>> = { true: true, false: false, "1": true, "0": false, on: true, off: false };

/**
 * A boolean, also when sent as 0/1 or as one of the words `true/false/1/0/on/off` in any case
 * (.NET writes `True`, forms write `on`), as the real service reads them.
 */
export const flag = z.union(
  [
    z.boolean(),
    z.pipe(
      z.literal([0, 1]),
      z.transform((v) => v === 1),
    ),
    z.pipe(
      /* @__PURE__ */ z.string().check(
        z.trim(),
        z.toLowerCase(),
        z.refine((v) => Object.hasOwn(FLAG_WORDS, v)),
      ),
      z.transform((v) => FLAG_WORDS[v]!),
    ),
  ],
  { error: "expected a boolean (true/false, 1/0 or on/off)" },
);

/** A string the server may leave out or send as null. */
export const optionalText = z.nullish(z.string());

/** A URL field that is an empty string until the resource is complete. */
export const urlOrEmpty = z.pipe(
  z.nullish(z.string()),
  z.transform((v) => v ?? ""),
);

/** A `success` field: real responses send `true` or a sentence; any truthy value is success. */
export const success = z.pipe(
  z.union([z.boolean(), z.string(), z.number()]),
  z.transform((v) => Boolean(v)),
);
