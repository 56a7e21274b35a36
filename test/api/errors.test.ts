import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  batchCapOf,
  createSkyboxClient,
  dailyCreditsMessage,
  errorKindOf,
  isSkyboxApiError,
  messageFromBody,
  MESSAGES,
  SkyboxApiError,
  Style,
} from "../../src/api/index.ts";
import { startRecordingServer, type Reply } from "../helpers/recording-server.ts";
import { creationResponse, model4Style } from "../fixtures/api-shapes.ts";

const KEY = "sk-secret-key-must-not-leak-42";
let server: Awaited<ReturnType<typeof startRecordingServer>>;
let reply: Reply;
beforeAll(async () => {
  server = await startRecordingServer(() => reply);
});
afterAll(() => server.close());
const client = () => createSkyboxClient({ baseUrl: server.url, apiKey: KEY, retry: 0 });

async function failure(p: Promise<unknown>): Promise<SkyboxApiError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isSkyboxApiError(error)) throw new Error(`expected a SkyboxApiError, got ${String(error)}`);
  return error;
}

describe("error kinds from status and the spec's messages", () => {
  test.each([
    [401, "Invalid API key", "unauthorized"],
    [403, MESSAGES.noSubscription, "subscription_required"],
    [403, MESSAGES.batchPlan, "plan_forbidden"],
    [404, MESSAGES.batchNotFound, "not_found"],
    [409, MESSAGES.batchInProgress, "conflict"],
    [422, MESSAGES.quantity, "validation"],
    [422, MESSAGES.batchCap(40, 30), "plan_forbidden"],
    [422, MESSAGES.model4Overage, "plan_forbidden"],
    [422, MESSAGES.batchCredits(1, 3, 3), "insufficient_credits"],
    [422, MESSAGES.model4Credits(1, 9), "insufficient_credits"],
    [429, "", "rate_limited"],
    [429, dailyCreditsMessage(20, 18, 3, new Date("2026-11-22T00:00:00Z")), "insufficient_credits"],
    [503, "Generations are disabled", "unavailable"],
    [500, "boom", "unavailable"],
  ] as const)("%i %s → %s", (status, message, kind) => expect(errorKindOf(status, message)).toBe(kind));
});

describe("the server's message from any body shape", () => {
  test.each([
    [{ error: "Batch not found." }, "Batch not found."],
    [{ message: "Skybox style does not exist" }, "Skybox style does not exist"],
    [{ error: { message: "nested" } }, "nested"],
    [{ errors: { quantity: ["Quantity must be a positive integer."] } }, "quantity: Quantity must be a positive integer."],
    ["plain text error", "plain text error"],
    [{}, null],
  ])("%j", (body, expected) => expect(messageFromBody(body)).toBe(expected));
});

describe("HTTP errors become SkyboxApiError", () => {
  test("422 batch message: kind, status, message, method and path", async () => {
    reply = { status: 422, body: { error: MESSAGES.batchCredits(2, 5, 5) } };
    const e = await failure(client().generateBatch({ prompt: "p", skybox_style_id: 2, quantity: 5 }));
    expect(e).toMatchObject({
      kind: "insufficient_credits",
      status: 422,
      serverMessage: MESSAGES.batchCredits(2, 5, 5),
      method: "POST",
      path: "/api/v1/skybox/batch",
    });
    expect(e.message).toContain("POST /api/v1/skybox/batch");
  });
  test("429 carries Retry-After", async () => {
    reply = { status: 429, body: "", headers: { "retry-after": "7" } };
    const e = await failure(client().generate({ prompt: "p", skybox_style_id: 2 }));
    expect(e).toMatchObject({ kind: "rate_limited", retryAfter: 7 });
  });
  test("a response that fails its schema is invalid_response naming the field", async () => {
    reply = { body: { ...creationResponse, status: "finished" } };
    const e = await failure(client().getGeneration(46));
    expect(e.kind).toBe("invalid_response");
    expect(e.message).toContain("status");
    reply = { body: "<html>" };
    expect((await failure(client().getGeneration(46))).kind).toBe("invalid_response");
  });
  test("network error when the server drops the connection", async () => {
    reply = { destroy: true };
    const e = await failure(client().getGeneration(46));
    expect(e).toMatchObject({ kind: "network", status: 0 });
  });
  test("the key never appears in a message, header or query mode alike", async () => {
    reply = { status: 401, body: { error: `Invalid API key ${KEY}` } };
    for (const apiKeyIn of ["header", "query"] as const) {
      const c = createSkyboxClient({ baseUrl: server.url, apiKey: KEY, apiKeyIn, retry: 0 });
      const e = await failure(c.styles());
      expect(e.kind).toBe("unauthorized");
      expect(`${e.message} ${e.stack} ${JSON.stringify({ ...e })}`).not.toContain(KEY);
      expect(JSON.stringify(e.data)).toContain("[redacted]");
    }
    reply = { destroy: true };
    const e = await failure(createSkyboxClient({ baseUrl: server.url, apiKey: KEY, apiKeyIn: "query", retry: 0 }).styles());
    expect(`${e.message} ${e.stack} ${String(e.cause)}`).not.toContain(KEY);
  });
});

describe("rules and types are checked before sending", () => {
  test("a rule: no request is made and the error names field and rule", async () => {
    const before = server.requests.length;
    const e = await failure(client().requestExport({ skybox_id: "abc", type_id: 11, depth_scale: 12 }));
    expect(server.requests.length).toBe(before);
    expect(e).toMatchObject({ kind: "validation", status: 0 });
    expect(e.issues[0]).toMatchObject({ path: ["depth_scale"], rule: "depth-scale-range" });
    expect(e.message).toContain("depth_scale: must be between 3 and 10");
  });
  test("a wrong type or unknown field is refused with its zod path", async () => {
    const e = await failure(client().generate({ prompt: "p", skybox_style_id: "two" }));
    expect(e.issues[0]?.path).toEqual(["skybox_style_id"]);
    const u = await failure(client().generate({ prompt: "p", skybox_style_id: 2, colour: "red" } as never));
    expect(u.message).toContain("colour");
  });
  test("style rules apply once the style is known (passed, or seen in styles())", async () => {
    const style = Style.parse(model4Style);
    reply = { body: [model4Style] };
    const c = client();
    await c.styles();
    const e = await failure(c.generate({ prompt: "p", skybox_style_id: 101 }));
    expect(e.issues[0]).toMatchObject({ path: ["variant_id"], rule: "model4-needs-variant" });
    const b = await failure(c.generateBatch({ prompt: "p", skybox_style_id: style.id, quantity: 2 }));
    expect(b.serverMessage).toBe(`variant_id: ${MESSAGES.batchVariantRequired}`);
    const q = await failure(c.generateBatch({ prompt: "p", skybox_style_id: 2, quantity: 0 }));
    expect(q.serverMessage).toContain(MESSAGES.quantity);
  });
});

describe("the real service's over-cap sentence", () => {
  test("becomes the structured batch-credit-cap issue with its limit, as the local service sends it", async () => {
    reply = { status: 422, body: { error: MESSAGES.batchCap(40, 30) } };
    const error = await failure(client().generateBatch({ prompt: "p", skybox_style_id: 2, quantity: 40 }));
    expect(error.kind).toBe("plan_forbidden");
    expect(error.issues).toEqual([expect.objectContaining({ path: ["quantity"], rule: "batch-credit-cap", limit: 30 })]);
    expect(batchCapOf(error.issues)).toBe(30);
  });

  test("other sentences give no issue", async () => {
    reply = { status: 422, body: { error: `${MESSAGES.batchCap(40, 30)} (and more)` } };
    const error = await failure(client().generateBatch({ prompt: "p", skybox_style_id: 2, quantity: 40 }));
    expect(error.issues).toEqual([]);
  });
});
