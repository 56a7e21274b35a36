import { describe, expect, test } from "vitest";
import { batchCapFor } from "../../../../src/api/index.ts";
import { batchProblem, shownBatchCap } from "../../../../src/inspector/state/form/batch-request.ts";
import { DEFAULT_FORM } from "../../../../src/inspector/state/form/generate-form.ts";

const form = (quantity: number, mode = DEFAULT_FORM.mode) => ({ ...DEFAULT_FORM, quantity, mode });

describe("the Batch section's rules", () => {
  test("the cap shown: the plan's, else the one a refusal named, else unknown", () => {
    expect(shownBatchCap(batchCapFor("business"), null)).toEqual({ cap: 30, learned: false });
    expect(shownBatchCap(batchCapFor("free"), 30)).toEqual({ cap: null, learned: false });
    expect(shownBatchCap(undefined, 30)).toEqual({ cap: 30, learned: true });
    expect(shownBatchCap(undefined, null)).toEqual({ cap: undefined, learned: false });
  });

  test("why a batch cannot be sent: mode, the service's refusal, no batches on the plan, over the cap", () => {
    const ctx = { each: 3, cap: 30, blocked: null };
    expect(batchProblem(form(10), ctx)).toBeNull();
    expect(batchProblem(form(11), ctx)).toBe("33 credits is over the plan's limit of 30 credits per batch: lower the quantity.");
    expect(batchProblem(form(2, "edit"), ctx)).toBe("Batches make new skyboxes: switch the Generate section to Generate.");
    expect(batchProblem(form(2), { ...ctx, blocked: "Batch generation is not available on your current plan." })).toBe(
      "Batch generation is not available on your current plan.",
    );
    expect(batchProblem(form(2), { ...ctx, cap: null })).toBe("Batches are not available on this plan.");
    expect(batchProblem(form(2), { ...ctx, each: null, cap: null })).toBe("Batches are not available on this plan.");
    // Unknown cost or unknown cap: the service decides.
    expect(batchProblem(form(99), { ...ctx, each: null })).toBeNull();
    expect(batchProblem(form(99), { ...ctx, cap: undefined })).toBeNull();
  });
});
