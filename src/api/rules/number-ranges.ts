/**
 * The ranges of the requests' numeric fields, and the sentence that refuses a value outside
 * one, naming the field and the rule: `seed: must be an integer from 0 to 2147483647 (is -5)`.
 * The request schemas bound their fields with these; forms (the pane) check what a person
 * types with them before anything is sent, instead of clearing or clamping it.
 */
import { num } from "../schemas/fields.ts";
import { MAX_BATCH_QUANTITY } from "./batch-rules.ts";
import { DEPTH_SCALE } from "./export-rules.ts";
import { issue, type RuleIssue } from "./rule-issue.ts";

/** The largest seed a generation takes (seeds are 0..SEED_MAX). */
export const SEED_MAX = 2_147_483_647;

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
  depth_scale: { min: DEPTH_SCALE.min, max: DEPTH_SCALE.max, integer: false },
} as const satisfies Record<string, NumberRange>;

export type RangedField = keyof typeof NUMBER_RANGES;

/** `must be an integer from 0 to 2147483647` */
export function rangeRule(range: NumberRange): string {
  return `must be ${range.integer ? "an integer" : "a number"} from ${range.min} to ${range.max}`;
}

/**
 * A value of a ranged field, as a number or as typed (read as the service reads numbers in
 * forms: decimal, optionally with an exponent).
 * @returns the number, or the issue that refuses it
 */
export function readRanged(field: RangedField, value: number | string): { value: number } | { issue: RuleIssue } {
  const range: NumberRange = NUMBER_RANGES[field];
  const parsed = typeof value === "number" ? { success: true as const, data: value } : num.safeParse(value);
  const n = parsed.success ? parsed.data : NaN;
  if (Number.isFinite(n) && n >= range.min && n <= range.max && (!range.integer || Number.isInteger(n))) return { value: n };
  const shown = typeof value === "string" ? (value.trim() === "" ? "empty" : value.trim().slice(0, 40)) : String(value);
  return { issue: issue(field, `${field.replaceAll("_", "-")}-range`, `${rangeRule(range)} (is ${shown})`) };
}

/** The issues of a ranged field's value: none when it is within its range. */
export function checkRange(field: RangedField, value: number | string): RuleIssue[] {
  const read = readRanged(field, value);
  return "issue" in read ? [read.issue] : [];
}
