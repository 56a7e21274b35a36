import { describe, expect, test } from "vitest";
import { checkBatchCap, MESSAGES, SkyboxApiError } from "../../../../src/api/index.ts";
import { lessonOf } from "../../../../src/inspector/state/jobs/plan-lessons.ts";

const refused = (status: number, serverMessage: string, issues = checkBatchCap(11, 33, 30)) =>
  new SkyboxApiError({ kind: "plan_forbidden", status, serverMessage, issues: [...issues] });

describe("what a refusal teaches the pane about the plan", () => {
  test("the batch cap comes from the structured issue, whatever the wording", () => {
    expect(lessonOf(refused(422, MESSAGES.batchCap(11, 30)), "batch")).toEqual({ batchCap: 30 });
    // Another wording (a translated or reworded message) teaches the same cap.
    expect(lessonOf(refused(422, "Trop de crédits pour ce lot."), "batch")).toEqual({ batchCap: 30 });
    // A Model 4 batch over the cap still teaches the cap.
    expect(lessonOf(refused(422, "over"), null)).toEqual({ batchCap: 30 });
  });

  test("the wording alone teaches no cap: without the issue, a 422 over the cap is only shown", () => {
    expect(lessonOf(refused(422, MESSAGES.batchCap(11, 30), []), "batch")).toBeNull();
  });

  test("a 403 takes away the request's feature, with the service's reason", () => {
    expect(lessonOf(refused(403, MESSAGES.batchPlan, []), "batch")).toEqual({ refusal: { what: "batch", reason: MESSAGES.batchPlan } });
    expect(lessonOf(refused(403, "No Model 4 here.", []), "model4")).toEqual({ refusal: { what: "model4", reason: "No Model 4 here." } });
    // A Model 4 batch refused by the plan says nothing about batches in general.
    expect(lessonOf(refused(403, MESSAGES.batchPlan, []), null)).toBeNull();
  });

  test("other failures teach nothing", () => {
    expect(lessonOf(new SkyboxApiError({ kind: "insufficient_credits", status: 402, serverMessage: "no credits" }), "batch")).toBeNull();
    expect(lessonOf(new TypeError("fetch failed"), "model4")).toBeNull();
  });
});
