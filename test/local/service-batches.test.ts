import Pusher from "pusher-js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSkyboxClient, isSkyboxApiError, MESSAGES, type Batch, type SkyboxClient } from "../../src/api/index.ts";
import { startLocalProcess, waitFor, type LocalProcess } from "../helpers/local-service.ts";

let svc: LocalProcess;
const admin = async (path: string, body: object) =>
  (
    await fetch(`${svc.info.url}/_admin/${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${svc.info.adminToken}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    })
  ).json();
/** A fresh account, so each test starts with no batch in progress. */
async function account(body: object = { plan: "business" }): Promise<{ apiKey: string; client: SkyboxClient }> {
  const { apiKey } = (await admin("accounts", body)) as { apiKey: string };
  return { apiKey, client: createSkyboxClient({ baseUrl: svc.info.url, apiKey, retry: 0 }) };
}
/** POSTs a raw batch body and returns status and error message. */
async function rawBatch(apiKey: string, body: object) {
  const r = await fetch(`${svc.info.url}/api/v1/skybox/batch`, {
    method: "POST",
    headers: { "x-api-key": apiKey, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = await r.json();
  return { status: r.status, error: json.error as string, json };
}
const settled = (c: SkyboxClient, id: number): Promise<Batch> =>
  waitFor(
    async () => {
      const b = await c.getBatch(id);
      return ["finalized", "error", "abort"].includes(b.status) && b;
    },
    60_000,
    100,
  );

beforeAll(async () => {
  svc = await startLocalProcess({ speed: 100 });
});
afterAll(() => svc.stop());

describe("the spec's batch error table, word for word", () => {
  test("403 You don't have an active subscription", async () => {
    const a = await account({ plan: "business", subscriptionActive: false });
    expect(await rawBatch(a.apiKey, { prompt: "x", skybox_style_id: 2, quantity: 1 })).toMatchObject({
      status: 403,
      error: MESSAGES.noSubscription,
    });
  });
  test("403 Batch generation is not available on your current plan. (Free)", async () => {
    const a = await account({ plan: "free" });
    expect(await rawBatch(a.apiKey, { prompt: "x", skybox_style_id: 2, quantity: 1 })).toMatchObject({
      status: 403,
      error: MESSAGES.batchPlan,
    });
  });
  test("404 Skybox style does not exist", async () => {
    const a = await account();
    expect(await rawBatch(a.apiKey, { prompt: "x", skybox_style_id: 4242, quantity: 1 })).toMatchObject({
      status: 404,
      error: MESSAGES.styleNotFound,
    });
  });
  test("404 Batch not found. (unknown id, and another account's batch)", async () => {
    const a = await account();
    const b = await account();
    const batch = await a.client.generateBatch({ prompt: "mine", skybox_style_id: 2, quantity: 1 });
    for (const [c, id] of [
      [a.client, 987654],
      [b.client, batch.id],
    ] as const) {
      const e = await c.getBatch(id).catch((x: unknown) => x);
      expect(isSkyboxApiError(e) && [e.status, e.serverMessage]).toEqual([404, MESSAGES.batchNotFound]);
    }
  });
  test("409 A batch is already being processed.", async () => {
    const a = await account();
    await a.client.generateBatch({ prompt: "first", skybox_style_id: 2, quantity: 2 });
    expect(await rawBatch(a.apiKey, { prompt: "second", skybox_style_id: 2, quantity: 1 })).toMatchObject({
      status: 409,
      error: MESSAGES.batchInProgress,
    });
  });
  test("422 Quantity must be a positive integer.", async () => {
    const a = await account();
    for (const quantity of [undefined, 0, -2, 1.5, "many"])
      expect(await rawBatch(a.apiKey, { prompt: "x", skybox_style_id: 2, quantity })).toMatchObject({
        status: 422,
        error: MESSAGES.quantity,
      });
  });
  test("422 Model 4 without variant; 422 Invalid variant_id", async () => {
    const a = await account();
    expect(await rawBatch(a.apiKey, { prompt: "x", skybox_style_id: 101, quantity: 1 })).toMatchObject({
      status: 422,
      error: MESSAGES.batchVariantRequired,
    });
    expect(await rawBatch(a.apiKey, { prompt: "x", skybox_style_id: 101, quantity: 1, variant_id: 1021 })).toMatchObject({
      status: 422,
      error: MESSAGES.invalidVariant,
    });
  });
  test("422 exceeds your plan limit of M credits per batch", async () => {
    const a = await account({ plan: "standard" });
    expect(await rawBatch(a.apiKey, { prompt: "x", skybox_style_id: 2, quantity: 4 })).toMatchObject({
      status: 422,
      error: MESSAGES.batchCap(4, 3),
    });
    const b = await account({ plan: "business" });
    expect(await rawBatch(b.apiKey, { prompt: "x", skybox_style_id: 101, variant_id: 1011, quantity: 11 })).toMatchObject({
      status: 422,
      error: MESSAGES.batchCap(11, 30),
    });
  });
  test("422 Model 4 credits; 422 overage; 422 credits", async () => {
    const poor = await account({ plan: "business", credits: 5 });
    expect(await rawBatch(poor.apiKey, { prompt: "x", skybox_style_id: 101, variant_id: 1011, quantity: 2 })).toMatchObject({
      status: 422,
      error: MESSAGES.model4Credits(5, 6),
    });
    expect(await rawBatch(poor.apiKey, { prompt: "x", skybox_style_id: 2, quantity: 6 })).toMatchObject({
      status: 422,
      error: MESSAGES.batchCredits(5, 6, 6),
    });
    const metered = await account({ plan: "business", overage: true });
    expect(await rawBatch(metered.apiKey, { prompt: "x", skybox_style_id: 101, variant_id: 1011, quantity: 1 })).toMatchObject({
      status: 422,
      error: MESSAGES.model4Overage,
    });
  });
  test("Essential runs Model 3 batches within its cap but not Model 4", async () => {
    const a = await account({ plan: "essential" });
    expect((await rawBatch(a.apiKey, { prompt: "x", skybox_style_id: 101, variant_id: 1011, quantity: 1 })).status).toBe(403);
    expect((await rawBatch(a.apiKey, { prompt: "x", skybox_style_id: 2, quantity: 3 })).status).toBe(200);
  });
  test("503 when generations are disabled platform-wide", async () => {
    const a = await account();
    await admin("settings", { generationsDisabled: true });
    try {
      expect((await rawBatch(a.apiKey, { prompt: "x", skybox_style_id: 2, quantity: 1 })).status).toBe(503);
      expect((await a.client.generate({ prompt: "x", skybox_style_id: 2 }).catch((e: unknown) => e)) as { status: number }).toMatchObject({
        status: 503,
      });
    } finally {
      await admin("settings", { generationsDisabled: false });
    }
  });
  test("credits are checked for the whole batch before anything is created", async () => {
    const a = await account({ plan: "business", credits: 2 });
    expect((await rawBatch(a.apiKey, { prompt: "x", skybox_style_id: 2, quantity: 3 })).status).toBe(422);
    expect((await a.client.history()).totalCount).toBe(0);
    expect((await a.client.batches()).totalCount).toBe(0);
  });
});

describe("submission errors", () => {
  test("an item the domain refuses is a submission error with its answer's words and status", async () => {
    const a = await account();
    const { status, json } = await rawBatch(a.apiKey, { prompt: "x", skybox_style_id: 2, quantity: 2, init_image_hash: "f".repeat(64) });
    expect(status).toBe(200);
    const message = "init_image_hash: names no image uploaded before (SHA-256 hex of its bytes)";
    expect(json).toMatchObject({
      successfully_submitted: 0,
      submission_errors: [
        { index: 0, message, status: 422 },
        { index: 1, message, status: 422 },
      ],
    });
  });
});

describe("batch life", () => {
  test("pending → … → finalized, counters live on the batch channel, each generation its own", async () => {
    const a = await account({ plan: "business", credits: 100 });
    const pusher = new Pusher(svc.info.pusher.key, {
      cluster: "mt1",
      wsHost: svc.info.pusher.wsHost,
      wsPort: svc.info.pusher.wsPort,
      forceTLS: false,
      enabledTransports: ["ws"],
    });
    try {
      const batch = await a.client.generateBatch({ prompt: "forest hills at dawn", skybox_style_id: 2, quantity: 3, seed: 5 });
      expect(batch).toMatchObject({ status: "pending", quantity: 3, successfully_submitted: 3, submission_errors: [] });
      expect(batch.generations?.map((g) => g.seed)).toEqual([5, 6, 7]);
      const events: { status: string; completed: number }[] = [];
      pusher.subscribe(batch.pusher_channel!).bind("status_update", (d: { status: string; completed: number }) => events.push(d));
      const done = await settled(a.client, batch.id);
      await waitFor(() => events.at(-1)?.status === "finalized");
      expect(done).toMatchObject({ status: "finalized", completed: 3, errored: 0, aborted: 0 });
      expect(done.generations?.every((g) => g.status === "complete" && g.file_url)).toBe(true);
      const completedCounts = events.map((e) => e.completed);
      expect(completedCounts).toEqual([...completedCounts].sort((x, y) => x - y));
      expect((await a.client.getGeneration(batch.generations![0]!.id)).status).toBe("complete");
      expect((await a.client.batches({ status: "finalized" })).data[0]).not.toHaveProperty("generations");
      // The credits of 3 Model 3 generations were taken.
      expect((await admin("accounts", { apiKey: a.apiKey })).credits).toBe(97);
    } finally {
      pusher.disconnect();
    }
  });
  test("all generations cancelled: the batch ends in abort; a new batch may then start", async () => {
    const a = await account();
    const batch = await a.client.generateBatch({ prompt: "ocean", skybox_style_id: 2, quantity: 2 });
    for (const g of batch.generations!) await a.client.cancelGeneration(g.id);
    expect(await settled(a.client, batch.id)).toMatchObject({ status: "abort", aborted: 2 });
    expect((await a.client.generateBatch({ prompt: "again", skybox_style_id: 2, quantity: 1 })).status).toBe("pending");
  });
  test("a Model 4 batch with its variant runs on Business", async () => {
    const a = await account({ plan: "business", credits: 30 });
    const batch = await a.client.generateBatch({ prompt: "neon city at night", skybox_style_id: 104, variant_id: 1042, quantity: 2 });
    expect(batch.generations?.every((g) => g.variant_id === 1042 && g.model === "Model 4")).toBe(true);
    expect((await settled(a.client, batch.id)).status).toBe("finalized");
    expect((await admin("accounts", { apiKey: a.apiKey })).credits).toBe(22);
  });
});
