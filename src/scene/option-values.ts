/**
 * How `applySkybox` and `loadSkybox` read their options: a part given as `boolean | settings`,
 * and a number held to its rule. A wrong number throws before anything is downloaded, naming
 * the option and the rule (`applySkybox: background.blur: must be a finite number from 0 to 1 (is 2)`);
 * it is never clamped into range behind the caller's back.
 */
import { quotedInput } from "../api/errors/rule-sentence.ts";

/** A part's settings: `false` is off (null), `true` or absent is on with its defaults. */
export const part = <T extends object>(value: boolean | T | undefined): T | null =>
  value === false ? null : value === true || value === undefined ? ({} as T) : value;

/**
 * The reader of a function's number options.
 * @param caller `applySkybox` or `loadSkybox`, named in its errors
 * @returns (name, value, fallback, min, max) => the value, or the fallback when undefined
 * @throws RangeError naming the option and its rule
 */
export const numberOptions =
  (caller: string) =>
  (name: string, value: number | undefined, fallback: number, min = -Infinity, max = Infinity): number => {
    if (value === undefined) return fallback;
    if (typeof value === "number" && Number.isFinite(value) && value >= min && value <= max) return value;
    const rule = min === -Infinity ? "" : max === Infinity ? ` of at least ${min}` : ` from ${min} to ${max}`;
    throw new RangeError(`${caller}: ${name}: must be a finite number${rule}${quotedInput(value)}`);
  };
