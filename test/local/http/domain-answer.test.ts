import { describe, expect, test } from "vitest";
import { issue } from "../../../src/api/rules/rule-issue.ts";
import { httpAnswerOf } from "../../../src/local/http/domain-answer.ts";
import { HttpError, notFound as httpNotFound, ruleError } from "../../../src/local/http/http-error.ts";
import { insufficientCredits } from "../../../src/local/lifecycle/generation-factory.ts";
import { brokenRules, notFound } from "../../../src/local/records/domain-error.ts";
import type { Account } from "../../../src/local/store/accounts.ts";

const answer = (error: unknown) => {
  const a = httpAnswerOf(error);
  return a && { status: a.status, body: a.body, headers: a.headers };
};

describe("the HTTP answer of a domain refusal", () => {
  test("not found: 404 with the domain's words", () => {
    expect(answer(notFound("edit_skybox_id: skybox 7 not found"))).toEqual(answer(httpNotFound("edit_skybox_id: skybox 7 not found")));
    expect(answer(notFound("x"))).toEqual({ status: 404, body: { error: "x" }, headers: {} });
  });

  test("broken rules: the rules' answer (status of the first issue, issues with their limits)", () => {
    const issues = [
      issue("init_image", "image-format", "must be a PNG, JPEG or WebP image"),
      { ...issue("quantity", "batch-credit-cap", "is over the cap", "validation", 403), limit: 12 },
    ];
    expect(answer(brokenRules(issues))).toEqual(answer(ruleError(issues)));
    expect(answer(brokenRules([issues[1]!]))?.status).toBe(403);
    expect(answer(brokenRules(issues))?.body).toMatchObject({
      error: "init_image: must be a PNG, JPEG or WebP image; quantity: is over the cap",
    });
  });

  test("insufficient credits: 422 with the spec's sentence", () => {
    const account = { credits: 3 } as Account;
    expect(answer(insufficientCredits(account, 5))).toEqual({
      status: 422,
      body: { error: "You have 3 credits remaining. This generation requires 5 credits." },
      headers: {},
    });
  });

  test("HTTP errors pass as they are; anything else is no answer (an internal error)", () => {
    const limited = new HttpError(429, "slow down", { headers: { "retry-after": "10" } });
    expect(httpAnswerOf(limited)).toBe(limited);
    expect(httpAnswerOf(new Error("boom"))).toBeUndefined();
  });
});
