/**
 * The Batch section's rules, from `src/api/rules`: the plan's cap per batch (known from the
 * plan, or learnt from a refusal) and why a batch of the form cannot be sent, in the pane's
 * words. Pure functions, so they are testable without a pane.
 */
import { checkBatchCap } from "../../../api/index.ts";
import type { GenerateFormValue } from "./generate-form.ts";
import { typedProblem } from "./number-inputs.ts";

/** The cap the Batch section shows. */
export interface ShownBatchCap {
  /** Credits per batch; null when the plan has no batches; undefined when not known. */
  cap: number | null | undefined;
  /** The cap is the one a refusal named (the plan was not given). */
  learned: boolean;
}

/**
 * @param planCap the cap of the plan given to the pane (undefined without a plan)
 * @param learnedCap the cap a refusal named, if any
 */
export function shownBatchCap(planCap: number | null | undefined, learnedCap: number | null): ShownBatchCap {
  const learned = planCap === undefined && learnedCap !== null;
  return { cap: learned ? learnedCap : planCap, learned };
}

/** What the Batch section knows besides the form. */
export interface BatchContext {
  /** Credits one generation of the form costs (null before a style is chosen). */
  each: number | null;
  cap: number | null | undefined;
  /** Why the service refused batches, once it did. */
  blocked: string | null;
}

/** Why a batch of the form cannot be sent (a quantity typed out of range first), in a sentence; null when it can. */
export function batchProblem(form: GenerateFormValue, ctx: BatchContext): string | null {
  if (form.mode !== "generate") return "Batches make new skyboxes: switch the Generate section to Generate.";
  const typed = typedProblem(form, "quantity");
  if (typed) return typed;
  if (ctx.blocked) return ctx.blocked;
  if (ctx.cap === undefined) return null;
  const total = ctx.each != null ? ctx.each * form.quantity : null;
  // Before a style is chosen the total is unknown: only the plan's own refusal of batches applies.
  const [refused] = checkBatchCap(form.quantity, total ?? 0, ctx.cap);
  if (refused?.rule === "batch-plan") return "Batches are not available on this plan.";
  if (refused) return `${total} credits is over the plan's limit of ${refused.limit} credits per batch: lower the quantity.`;
  return null;
}
