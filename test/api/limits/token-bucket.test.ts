import { describe, expect, test } from "vitest";
import { TokenBucket } from "../../../src/api/limits/token-bucket.ts";

describe("token bucket", () => {
  test("refills at its rate and forgets the least recent clients beyond its bound", () => {
    let now = 0;
    const limiter = new TokenBucket({ burst: 2, perSecond: 1, maxKeys: 2, now: () => now });
    expect([limiter.take("a").ok, limiter.take("a").ok, limiter.take("a")]).toEqual([true, true, { ok: false, retryAfter: 1 }]);
    now = 500;
    expect(limiter.take("a").ok).toBe(false);
    now = 1000;
    expect(limiter.take("a").ok).toBe(true);
    limiter.take("b");
    limiter.take("c"); // "a" is now forgotten: a full bucket again
    expect([limiter.take("a").ok, limiter.take("a").ok]).toEqual([true, true]);
  });

  test("keeps every key when unbounded, and says the whole seconds until the next token", () => {
    let now = 0;
    const limiter = new TokenBucket({ burst: 1, perSecond: 0.25, now: () => now });
    for (let i = 0; i < 100; i++) limiter.take(`k${i}`);
    expect(limiter.take("k0")).toEqual({ ok: false, retryAfter: 4 });
    now = 3000;
    expect(limiter.take("k0")).toEqual({ ok: false, retryAfter: 1 });
    now = 4000;
    expect(limiter.take("k0")).toEqual({ ok: true, retryAfter: 0 });
  });
});
