/**
 * Idle slices for background work: one comes (a timer where the platform has no idle
 * callback, as in Node), lasts a few milliseconds, and an abort cancels the wait.
 */
import { describe, expect, test } from "vitest";
import { idleSlice } from "../../../src/scene/scheduling/idle-time.ts";

describe("idle slices", () => {
  test("a slice comes, with time to work in", async () => {
    const slice = await idleSlice(new AbortController().signal);
    expect(slice.timeRemaining()).toBeGreaterThan(0);
  });

  test("an abort rejects the wait with its reason, before or during it", async () => {
    const before = new AbortController();
    before.abort(new Error("replaced"));
    await expect(idleSlice(before.signal)).rejects.toThrow("replaced");
    const during = new AbortController();
    const waiting = idleSlice(during.signal);
    during.abort(new Error("gone"));
    await expect(waiting).rejects.toThrow("gone");
  });
});
