/**
 * The ranges of the requests' numeric fields. The request schemas bound their fields with
 * these, and forms (the pane) check what a person types with them before anything is sent,
 * in the same sentence the service answers with, naming the field and the rule:
 * `seed: must be an integer from 0 to 2147483647 (is -5)`.
 */
import { issuesFromZod, safeParseRequest } from "../client/validate.ts";
import { integerFrom, num, numberFrom } from "../schemas/fields.ts";
import { MAX_BATCH_QUANTITY } from "./batch-rules.ts";
import type { RuleIssue } from "./rule-issue.ts";

/** The largest seed a generation takes (seeds are 0..SEED_MAX). */
export const SEED_MAX = 2_147_483_647;

/** The range of a numeric request field, and whether it must be whole. */
export interface NumberRange {
  min: number;
  max: number;
  integer: boolean;
}

/** Numeric request fields by their API name. Edit coordinates are degrees (see GenerateParams). */
export const NUMBER_RANGES = {
  seed: { min: 0, max: SEED_MAX, integer: true },
  quantity: { min: 1, max: MAX_BATCH_QUANTITY, integer: true },
  init_strength: { min: 0, max: 1, integer: false },
  center_x: { min: -180, max: 180, integer: false },
  center_y: { min: -90, max: 90, integer: false },
  fov: { min: 1, max: 180, integer: false },
} as const satisfies Record<string, NumberRange>;

/** The name of a numeric request field with a range (`seed`, `quantity`, ...). */
export type RangedField = keyof typeof NUMBER_RANGES;

/** The schema of a ranged field (a number or a numeric string), with the rule's one sentence. */
/* @__NO_SIDE_EFFECTS__ */
export function rangeSchema(field: RangedField) {
  const { min, max, integer }: NumberRange = NUMBER_RANGES[field];
  return integer ? integerFrom(min, max) : numberFrom(min, max);
}

/**
 * A value of a ranged field, as a number or as typed (read as the service reads numbers in
 * forms: decimal, optionally with an exponent; quoted in the sentence when it is no number).
 * @returns the number, or the issue that refuses it
 */
export function readRanged(field: RangedField, value: number | string): { value: number } | { issue: RuleIssue } {
  const asNumber = typeof value === "string" ? num.safeParse(value) : null;
  const parsed = safeParseRequest(rangeSchema(field), asNumber?.success ? asNumber.data : value);
  if (parsed.success) return { value: parsed.data };
  const [refused] = issuesFromZod(parsed.error);
  return { issue: { ...refused!, path: [field, ...refused!.path], rule: `${field.replaceAll("_", "-")}-range` } };
}

/** The issues of a ranged field's value: none when it is within its range. */
export function checkRange(field: RangedField, value: number | string): RuleIssue[] {
  const read = readRanged(field, value);
  return "issue" in read ? [read.issue] : [];
}
