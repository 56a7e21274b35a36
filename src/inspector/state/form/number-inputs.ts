/**
 * The Generate form's typed numbers (seed, batch quantity, edit centre): what a person types
 * is kept as typed and read with the API's ranges (src/api/rules/number-ranges.ts). A value
 * outside them is explained in the API's sentence (`seed: must be an integer from 0 to
 * 2147483647 (is -5)`) and blocks sending, instead of being cleared or clamped. Pure
 * functions, so the rules are testable without a pane.
 */
import { checkRange, describeIssue, readRanged, type RangedField } from "../../../api/index.ts";
import type { GenerateFormValue } from "./generate-form.ts";

/** The typed inputs, and the request field each one fills. */
export const TYPED_INPUTS = { seed: "seed", quantity: "quantity", lon: "center_x", lat: "center_y" } as const satisfies Record<
  string,
  RangedField
>;
export type TypedInput = keyof typeof TYPED_INPUTS;

/** Text typed into the inputs, by input: kept until a value is set another way (a shuffle, a pick). */
export type TypedTexts = Partial<Record<TypedInput, string>>;

/**
 * The form's fields that change when `text` is typed into `input`: its value when the text
 * reads, and the text itself in any case (so nothing typed is lost or reformatted).
 */
export function typedPatch(form: GenerateFormValue, input: TypedInput, text: string): Partial<GenerateFormValue> {
  const typed = { ...form.typed, [input]: text };
  // An empty seed asks for a new one each time.
  if (input === "seed" && text.trim() === "") return { seed: null, typed };
  const read = readRanged(TYPED_INPUTS[input], text);
  if ("issue" in read) return { typed };
  const v = read.value;
  if (input === "seed" || input === "quantity") return { [input]: v, typed };
  const center = form.editCenter ?? { lon: 0, lat: 0 };
  return { editCenter: input === "lon" ? { ...center, lon: v } : { ...center, lat: v }, typed };
}

/** The inputs whose typed text a patch of values replaces. */
export function replacedInputs(patch: Partial<GenerateFormValue>): TypedInput[] {
  const out: TypedInput[] = [];
  if ("seed" in patch) out.push("seed");
  if ("quantity" in patch) out.push("quantity");
  if ("editCenter" in patch) out.push("lon", "lat");
  return out;
}

/** Why what was typed into `input` is refused, in the API's sentence; null when it reads. */
export function typedProblem(form: GenerateFormValue, input: TypedInput): string | null {
  const text = form.typed[input];
  if (text === undefined || (input === "seed" && text.trim() === "")) return null;
  const [refused] = checkRange(TYPED_INPUTS[input], text);
  return refused ? describeIssue(refused) : null;
}

/**
 * Why the numbers a generation of the form would send are refused: typed text that does not
 * read, and values out of range however they were set (an app drives the form from code).
 */
export function numberProblems(form: GenerateFormValue): string[] {
  const out = [typedProblem(form, "seed") ?? rangeProblem("seed", form.typed.seed === undefined ? form.seed : null)];
  if (form.mode === "edit") {
    out.push(typedProblem(form, "lon"), typedProblem(form, "lat"), rangeProblem("fov", form.editFov));
    if (form.typed.lon === undefined) out.push(rangeProblem("center_x", form.editCenter?.lon ?? null));
    if (form.typed.lat === undefined) out.push(rangeProblem("center_y", form.editCenter?.lat ?? null));
  }
  if (form.mode === "generate" && form.initImage) out.push(rangeProblem("init_strength", form.initStrength));
  return out.filter((p): p is string => p !== null);
}

function rangeProblem(field: RangedField, value: number | null): string | null {
  if (value === null) return null;
  const [refused] = checkRange(field, value);
  return refused ? describeIssue(refused) : null;
}
