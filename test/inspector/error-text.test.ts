import { describe, expect, test } from "vitest";
import { ERROR_KINDS, SkyboxApiError } from "../../src/api/index.ts";
import { describeEnded, describeError, describeSceneError } from "../../src/inspector/error-text.ts";

describe("errors in words", () => {
  test("every kind of API error gets its own sentence, and the server's message is kept", () => {
    const sentences = new Set<string>();
    for (const kind of ERROR_KINDS) {
      const shown = describeError(new SkyboxApiError({ kind, status: 400, serverMessage: `server says ${kind}` }), "Export failed");
      expect(shown).toMatchObject({ title: "Export failed", kind, status: 400, serverMessage: `server says ${kind}` });
      sentences.add(shown.message);
    }
    expect(sentences.size).toBe(ERROR_KINDS.length);
  });

  test("rate limits say when to retry; rule issues name their fields", () => {
    expect(
      describeError(new SkyboxApiError({ kind: "rate_limited", status: 429, serverMessage: "slow down", retryAfter: 9.2 }), "x").message,
    ).toContain("in 10 s");
    const ruled = SkyboxApiError.fromIssues([
      { path: ["depth_scale"], rule: "depth-scale-range", message: "must be between 3 and 10 (is 12)", kind: "validation" },
    ]);
    expect(describeError(ruled, "x").serverMessage).toBe("depth_scale: must be between 3 and 10 (is 12)");
  });

  test("other failures keep their message; ended jobs say whether they were cancelled or failed", () => {
    expect(describeError(new TypeError("boom"), "x")).toMatchObject({ kind: "unknown", serverMessage: "boom" });
    expect(describeSceneError(new Error("WebGL lost"))).toMatchObject({
      kind: "scene",
      title: "Apply failed",
      serverMessage: "WebGL lost",
    });
    expect(describeEnded("abort", null, "Export").title).toBe("Export cancelled");
    expect(describeEnded("error", "render failed", "Generation")).toMatchObject({
      title: "Generation failed",
      serverMessage: "render failed",
    });
  });
});
