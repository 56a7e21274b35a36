/**
 * Field builders shared by every response schema. Real responses send numbers as strings
 * ("max-char": "600"), 0/1 for booleans and `null` where the spec says "not shown", so the
 * schemas coerce those instead of failing.
 */
import * as z from "zod";

/** A finite number, also when sent as a numeric string. */
export const num = z.union(
  [
    z.number(),
    z
      .string()
      .trim()
      .regex(/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/, { error: "expected a number or a numeric string" })
      .transform(Number),
  ],
  { error: "must be a number" },
);

/** An integer, also when sent as a numeric string. */
export const int = num.pipe(z.number().int({ error: "must be an integer" }));

/**
 * A number from `min` to `max`, also sent as a numeric string: one sentence for the whole
 * rule, whichever end it breaks (`must be a number from 0 to 1`).
 */
export const numberFrom = (min: number, max: number) => {
  const rule = `must be a number from ${min} to ${max}`;
  return num.pipe(z.number().min(min, { error: rule }).max(max, { error: rule }));
};

/** An integer from `min` to `max` (`max` may be Infinity), also sent as a numeric string, with one sentence for the rule. */
export const integerFrom = (min: number, max = Infinity) => {
  const rule = max === Infinity ? `must be an integer of at least ${min}` : `must be an integer from ${min} to ${max}`;
  return num.pipe(z.number().int({ error: rule }).min(min, { error: rule }).max(max, { error: rule }));
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
    z.literal([0, 1]).transform((v) => v === 1),
    z
      .string()
      .trim()
      .toLowerCase()
      .refine((v) => Object.hasOwn(FLAG_WORDS, v))
      .transform((v) => FLAG_WORDS[v]!),
  ],
  { error: "expected a boolean (true/false, 1/0 or on/off)" },
);

/** A string the server may leave out or send as null. */
export const optionalText = z.string().nullish();

/** A URL field that is an empty string until the resource is complete. */
export const urlOrEmpty = z
  .string()
  .nullish()
  .transform((v) => v ?? "");

/** A `success` field: real responses send `true` or a sentence; any truthy value is success. */
export const success = z.union([z.boolean(), z.string(), z.number()]).transform((v) => Boolean(v));
