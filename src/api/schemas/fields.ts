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
  { error: "expected a number" },
);

/** An integer, also when sent as a numeric string. */
export const int = num.pipe(z.number().int());

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
