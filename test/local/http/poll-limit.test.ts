import { expect, test } from "vitest";
import { pollLimit } from "../../../src/local/http/poll-limit.ts";

test("the polling limit allows bursts of a tenth of the minute's rate, at least 5, then refills at the rate", () => {
  const sixty = pollLimit(60);
  expect([sixty.perMinute, sixty.buckets.burst, sixty.buckets.perSecond]).toEqual([60, 6, 1]);
  const small = pollLimit(12);
  expect([small.buckets.burst, small.buckets.perSecond]).toEqual([5, 0.2]);
  const takes = Array.from({ length: 7 }, () => sixty.buckets.take("key"));
  expect(takes.map((t) => t.ok)).toEqual([true, true, true, true, true, true, false]);
  expect(takes[6]!.retryAfter).toBe(1);
  expect(sixty.buckets.take("other key").ok).toBe(true);
});
