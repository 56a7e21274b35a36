/** The rules a UI asks without an account's balance: by plan, by style, by record. */
import { describe, expect, test } from "vitest";
import {
  batchCapFor,
  batchCapOf,
  checkBatch,
  checkBatchCap,
  checkModel4Plan,
  checkTextLimits,
  Generation,
  MAX_BATCH_QUANTITY,
  MESSAGES,
  recordModel,
  Style,
  styleInfo,
} from "../../src/api/index.ts";
import { model3Style } from "../fixtures/api-shapes.ts";

describe("rules by plan, without the balance", () => {
  test("batch cap by plan; the largest quantity any batch can have", () => {
    expect(["free", "essential", "standard", "business"].map((p) => batchCapFor(p as "free"))).toEqual([null, 3, 3, 30]);
    expect(MAX_BATCH_QUANTITY).toBe(30);
  });

  test("the cap rule alone carries the cap as its limit, and the same issue as checkBatch", () => {
    expect(checkBatchCap(3, 3, 3)).toEqual([]);
    const [over] = checkBatchCap(4, 4, 3);
    expect(over).toMatchObject({ rule: "batch-credit-cap", limit: 3, message: MESSAGES.batchCap(4, 3), kind: "plan_forbidden" });
    expect(
      checkBatch(
        { prompt: "sea", skybox_style_id: 2, quantity: 4 },
        { style: styleInfo(Style.parse(model3Style)), account: { plan: "essential", credits: 100 } },
      ),
    ).toEqual([over]);
    expect(checkBatchCap(1, 1, null)[0]).toMatchObject({ rule: "batch-plan", message: MESSAGES.batchPlan, status: 403 });
  });

  test("the cap a refusal named is read from its issue, never from its wording", () => {
    expect(batchCapOf(checkBatchCap(11, 33, 30))).toBe(30);
    expect(
      batchCapOf([{ path: ["quantity"], rule: "batch-credits", message: MESSAGES.batchCap(11, 30), kind: "plan_forbidden" }]),
    ).toBeNull();
    expect(batchCapOf([])).toBeNull();
  });

  test("Model 4 by plan: Standard and Business only", () => {
    expect(checkModel4Plan("standard")).toEqual([]);
    expect(checkModel4Plan("business")).toEqual([]);
    expect(checkModel4Plan("essential")[0]).toMatchObject({
      rule: "model4-plan",
      kind: "plan_forbidden",
      status: 403,
      message: "Model 4 styles need a Standard or Business plan",
    });
  });
});

describe("rules by style and by record", () => {
  test("text limits of a style, for live counters", () => {
    const limits = { promptMax: 5, negativeMax: 2 };
    expect(checkTextLimits({ prompt: "12345", negative_text: "ab" }, limits)).toEqual([]);
    expect(checkTextLimits({ prompt: "123456", negative_text: "abc" }, limits).map((i) => i.rule)).toEqual([
      "prompt-max-char",
      "negative-text-max-char",
    ]);
    expect(checkTextLimits({ prompt: "x".repeat(99) }, { promptMax: null, negativeMax: null })).toEqual([]);
  });

  test("a record tells its model by its label; Model 3 without one", () => {
    const record = (model?: string) => Generation.parse({ id: 1, obfuscated_id: "x", status: "complete", ...(model ? { model } : {}) });
    expect(recordModel(record("Model 4"))).toBe(4);
    expect(recordModel(record("Model 3"))).toBe(3);
    expect(recordModel(record())).toBe(3);
  });
});
