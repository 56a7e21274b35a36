import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSkyboxClient, isSkyboxApiError } from "../../src/api/index.ts";
import { startRecordingServer, type Reply, type Responder } from "../helpers/recording-server.ts";
import { creationResponse, model3Style } from "../fixtures/api-shapes.ts";

let server: Awaited<ReturnType<typeof startRecordingServer>>;
beforeAll(async () => {
  server = await startRecordingServer(() => ({}));
});
afterAll(() => server.close());

/** Answers with each reply in turn, then the last one forever. */
function sequence(...replies: Reply[]): Responder {
  let i = 0;
  return () => replies[Math.min(i++, replies.length - 1)]!;
}
const fast = { limit: 3, backoffLimit: 50 };

describe("retries", () => {
  test("GET retries 503 and 500, then succeeds", async () => {
    server.requests.length = 0;
    server.respondWith(sequence({ status: 503, body: {} }, { status: 500, body: {} }, { body: [model3Style] }));
    const styles = await createSkyboxClient({ baseUrl: server.url, retry: fast }).styles();
    expect(styles).toHaveLength(1);
    expect(server.requests).toHaveLength(3);
  });
  test("GET honours Retry-After on 429", async () => {
    server.requests.length = 0;
    server.respondWith(sequence({ status: 429, body: {}, headers: { "retry-after": "1" } }, { body: [model3Style] }));
    const t0 = performance.now();
    await createSkyboxClient({ baseUrl: server.url, retry: fast }).styles();
    const waited = performance.now() - t0;
    expect(server.requests).toHaveLength(2);
    // The server asked for 1 s: the retry must not come sooner (a lower bound, not a speed claim).
    expect(waited).toBeGreaterThanOrEqual(900);
  });
  test("DELETE retries a dropped connection", async () => {
    server.requests.length = 0;
    server.respondWith(sequence({ destroy: true }, { body: { success: true } }));
    expect((await createSkyboxClient({ baseUrl: server.url, retry: fast }).cancelGeneration(1)).success).toBe(true);
    expect(server.requests).toHaveLength(2);
  });
  test("POST is never retried (no double charge)", async () => {
    server.requests.length = 0;
    server.respondWith(sequence({ status: 503, body: {} }, { body: creationResponse }));
    const error = await createSkyboxClient({ baseUrl: server.url, retry: fast })
      .generate({ prompt: "p", skybox_style_id: 2 })
      .catch((e: unknown) => e);
    expect(isSkyboxApiError(error) && error.kind).toBe("unavailable");
    expect(server.requests).toHaveLength(1);
  });
  test("gives up after the limit with the last error", async () => {
    server.requests.length = 0;
    server.respondWith(sequence({ status: 502, body: { message: "bad gateway" } }));
    const error = await createSkyboxClient({ baseUrl: server.url, retry: { limit: 2, backoffLimit: 20 } })
      .getBatch(1)
      .catch((e: unknown) => e);
    expect(isSkyboxApiError(error) && error.serverMessage).toBe("bad gateway");
    expect(server.requests).toHaveLength(3);
  });
});

describe("abort and timeout", () => {
  test("an AbortSignal cancels a call in flight", async () => {
    server.respondWith(() => ({ body: [model3Style], delay: 2000 }));
    const controller = new AbortController();
    const pending = createSkyboxClient({ baseUrl: server.url, retry: 0 }).styles({}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const error = await pending.catch((e: unknown) => e);
    expect(isSkyboxApiError(error) && error.kind).toBe("aborted");
  });
  test("a per-call timeout", async () => {
    server.respondWith(() => ({ body: [model3Style], delay: 2000 }));
    const error = await createSkyboxClient({ baseUrl: server.url, retry: 0 })
      .styles({}, { timeout: 100 })
      .catch((e: unknown) => e);
    expect(isSkyboxApiError(error) && error.kind).toBe("timeout");
  });
});
