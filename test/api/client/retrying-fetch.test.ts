import { describe, expect, test } from "vitest";
import { HttpStatusError, RequestTimeoutError, retryingFetch, type RetryingCall } from "../../../src/api/client/retrying-fetch.ts";

/** A fetch answering each status in turn (the last one forever), counting calls. */
function answers(...replies: (number | [number, Record<string, string>] | "hang")[]) {
  let calls = 0;
  const fetch = ((request: Request) => {
    const reply = replies[Math.min(calls++, replies.length - 1)]!;
    if (reply === "hang")
      return new Promise<Response>((_, reject) => request.signal.addEventListener("abort", () => reject(request.signal.reason)));
    const [status, headers] = typeof reply === "number" ? [reply, {}] : reply;
    return Promise.resolve(new Response("{}", { status, headers }));
  }) as typeof globalThis.fetch;
  return { fetch, calls: () => calls };
}

const call = (fetch: typeof globalThis.fetch, extra: Partial<RetryingCall> = {}): RetryingCall => ({
  fetch,
  request: (signal) => new Request("http://127.0.0.1:9/x", { signal }),
  method: "GET",
  timeout: 1000,
  retry: { limit: 2, backoffLimit: 10, maxRetryAfter: 60_000 },
  ...extra,
});

describe("retryingFetch", () => {
  test("a status that is not retried fails at once with its response", async () => {
    const server = answers(404, 200);
    const error = await retryingFetch(call(server.fetch)).catch((e: unknown) => e);
    expect(error instanceof HttpStatusError && error.response.status).toBe(404);
    expect(server.calls()).toBe(1);
  });
  test("a timeout is final, not retried", async () => {
    const server = answers("hang", 200);
    const error = await retryingFetch(call(server.fetch, { timeout: 30 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(server.calls()).toBe(1);
  });
  test("Retry-After beyond maxRetryAfter waits the cap", async () => {
    const server = answers([503, { "retry-after": "3600" }], 200);
    const t0 = performance.now();
    const response = await retryingFetch(call(server.fetch, { retry: { limit: 2, backoffLimit: 10, maxRetryAfter: 50 } }));
    expect(response.status).toBe(200);
    expect(performance.now() - t0).toBeLessThan(1000);
  });
  test("an abort during the wait before a retry rejects with the abort's reason", async () => {
    const server = answers([503, { "retry-after": "10" }]);
    const controller = new AbortController();
    const pending = retryingFetch(call(server.fetch, { signal: controller.signal }));
    setTimeout(() => controller.abort(), 20);
    const error = await pending.catch((e: unknown) => e);
    expect((error as Error).name).toBe("AbortError");
    expect(server.calls()).toBe(1);
  });
});
