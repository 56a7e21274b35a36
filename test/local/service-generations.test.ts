import Pusher from "pusher-js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSkyboxClient, isSkyboxApiError, MESSAGES, type SkyboxClient } from "../../src/api/index.ts";
import { startLocalProcess, waitFor, type LocalProcess } from "../helpers/local-service.ts";

let svc: LocalProcess;
let client: SkyboxClient;
const admin = (path: string, body: object) =>
  fetch(`${svc.info.url}/_admin/${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${svc.info.adminToken}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  }).then((r) => r.json());
const api = (path: string, init: RequestInit = {}, key: string | null = svc.info.apiKey) =>
  fetch(`${svc.info.url}/api/v1${path}`, { ...init, headers: { ...(key ? { "x-api-key": key } : {}), ...init.headers } });

beforeAll(async () => {
  svc = await startLocalProcess();
  client = createSkyboxClient({ baseUrl: svc.info.url, apiKey: svc.info.apiKey, retry: 0 });
});
afterAll(() => svc.stop());

const failure = async (p: Promise<unknown>) => {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  if (!isSkyboxApiError(e)) throw new Error(`expected an API error, got ${String(e)}`);
  return e;
};
const complete = (id: number) =>
  waitFor(
    async () => {
      const g = await client.getGeneration(id);
      return ["complete", "error", "abort"].includes(g.status) && g;
    },
    60_000,
    100,
  );

describe("keys", () => {
  test("missing and unknown keys are 401 with a clear message", async () => {
    const none = await api("/skybox/styles", {}, null);
    expect(none.status).toBe(401);
    expect((await none.json()).error).toMatch(/Missing API key/);
    const wrong = await api("/skybox/styles", {}, "not-a-real-key-123");
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).error).toBe("Invalid API key");
  });
  test("the key works as ?api_key= on GETs and as a multipart form field, as real clients send it", async () => {
    const q = await fetch(`${svc.info.url}/api/v1/skybox/styles?api_key=${svc.info.apiKey}`);
    expect(q.status).toBe(200);
    const form = new FormData();
    form.append("api_key", svc.info.apiKey);
    form.append("prompt", "calm sea at noon");
    form.append("skybox_style_id", "2");
    const created = await fetch(`${svc.info.url}/api/v1/skybox`, { method: "POST", body: form });
    expect(created.status).toBe(200);
    const record = await created.json();
    expect(record).toMatchObject({ status: "pending", prompt: "calm sea at noon", pusher_event: "status_update" });
    expect(JSON.stringify(record)).not.toContain(svc.info.apiKey);
    // The wrapped polling record, fetched with the query key.
    const polled = await (await fetch(`${svc.info.url}/api/v1/imagine/requests/${record.id}?api_key=${svc.info.apiKey}`)).json();
    expect(polled.request.id).toBe(record.id);
    await complete(record.id);
  });
  test("an account without a subscription gets 403", async () => {
    const { apiKey } = await admin("accounts", { plan: "standard", subscriptionActive: false });
    const r = await api("/skybox/styles", {}, apiKey);
    expect(r.status).toBe(403);
    expect((await r.json()).error).toBe(MESSAGES.noSubscription);
  });
});

describe("styles", () => {
  test("Model 3 and Model 4 catalogues, with limits and variants", async () => {
    const m3 = await client.styles({ model_version: 3 });
    const m4 = await client.styles({ model_version: 4 });
    expect(m3.length).toBeGreaterThanOrEqual(6);
    expect(m3.every((s) => s.model_version === "3" && s["max-char"]! > 0 && s["negative-text-max-char"]! > 0)).toBe(true);
    expect(m4.every((s) => s.variants?.map((v) => v.name).join() === "Standard,Enhanced")).toBe(true);
    const families = await client.families({ model_version: 3 });
    expect(families.flatMap((f) => f.items).length).toBe(m3.length);
    const legacy = await (await api("/skybox")).json();
    expect(legacy.length).toBe(m3.length + m4.length);
  });
  test("style previews are real images", async () => {
    const [style] = await client.styles({ model_version: 3 });
    const r = await fetch(style!.image_jpg!);
    expect(r.headers.get("content-type")).toBe("image/jpeg");
    expect(new Uint8Array(await r.arrayBuffer()).subarray(0, 2)).toEqual(new Uint8Array([0xff, 0xd8]));
  });
});

describe("a generation's life", () => {
  test("pending → dispatched → processing → complete, in order, on pusher-js; files are served", async () => {
    const pusher = new Pusher(svc.info.pusher.key, {
      cluster: "mt1",
      wsHost: svc.info.pusher.wsHost,
      wsPort: svc.info.pusher.wsPort,
      forceTLS: false,
      enabledTransports: ["ws"],
    });
    try {
      const created = await client.generate({ prompt: "desert dunes at sunset", skybox_style_id: 2, seed: 11 });
      expect(created.queue_position).toBeGreaterThanOrEqual(0);
      const seen: string[] = [];
      const channel = pusher.subscribe(created.pusher_channel!);
      channel.bind("status_update", (data: { status: string }) => {
        if (seen.at(-1) !== data.status) seen.push(data.status);
      });
      const done = await complete(created.id);
      await waitFor(() => seen.at(-1) === "complete");
      // Subscribing raced the first event; every later status arrives, in order.
      expect(["pending", "dispatched", "processing", "complete"].slice(4 - seen.length)).toEqual(seen);
      expect(done).toMatchObject({ status: "complete", queue_position: 0, type: "skybox", model: "Model 3", seed: 11 });
      expect(done.title).toMatch(/^Desert Dunes At Sunset #\d+$/);
      for (const [url, type] of [
        [done.file_url, "image/jpeg"],
        [done.thumb_url, "image/jpeg"],
        [done.depth_map_url, "image/png"],
      ] as const) {
        const r = await fetch(url);
        expect(r.status).toBe(200);
        expect(r.headers.get("content-type")).toBe(type);
      }
    } finally {
      pusher.disconnect();
    }
  });
  test("the same seed, prompt and style give the same image", async () => {
    const a = await client.generate({ prompt: "snowy mountains at dawn", skybox_style_id: 2, seed: 99 });
    const b = await client.generate({ prompt: "snowy mountains at dawn", skybox_style_id: 2, seed: 99 });
    const [ga, gb] = [await complete(a.id), await complete(b.id)];
    const bytes = async (u: string) => Buffer.from(await (await fetch(u)).arrayBuffer());
    expect((await bytes(ga.file_url)).equals(await bytes(gb.file_url))).toBe(true);
  });
});

describe("deprecated routes", () => {
  test("POST /skybox/{id} creates a generation of style {id}, as its replacement does", async () => {
    const r = await api("/skybox/5", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ prompt: "old client" }),
    });
    expect(r.status).toBe(200);
    const g = await r.json();
    expect(g).toMatchObject({ status: "pending", skybox_style_id: 5, prompt: "old client" });
    await client.cancelGeneration(g.id);
  });
});

describe("bad requests", () => {
  test("unknown style: 404 Skybox style does not exist", async () => {
    const r = await api("/skybox", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ prompt: "x", skybox_style_id: 9999 }),
    });
    expect(r.status).toBe(404);
    expect((await r.json()).error).toBe(MESSAGES.styleNotFound);
  });
  test("wrong types are 422 naming the field; unknown fields are ignored, as the real service does (issue 12)", async () => {
    const r = await api("/skybox", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ prompt: "x", skybox_style_id: "two", colour: 1 }),
    });
    expect(r.status).toBe(422);
    const body = await r.json();
    expect(body.issues.map((i: { path: string[] }) => i.path[0] ?? "")).toEqual(["skybox_style_id"]);
    expect(body.error).toMatch(/^skybox_style_id: /);
    expect(body.error).not.toMatch(/colour/);
  });
  test("negative_text over the style's maximum, Model 4 without variant", async () => {
    const long = await api("/skybox", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ prompt: "x", skybox_style_id: 2, negative_text: "n".repeat(500) }),
    });
    expect(long.status).toBe(422);
    expect((await long.json()).error).toMatch(/^negative_text: must be at most 200 characters/);
    const m4 = await api("/skybox", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ prompt: "x", skybox_style_id: 101 }),
    });
    expect((await m4.json()).issues[0].rule).toBe("model4-needs-variant");
  });
  test("malformed JSON and multipart are 400; a huge body is 413; nothing crashes", async () => {
    expect((await api("/skybox", { method: "POST", headers: { "content-type": "application/json" }, body: "{nope" })).status).toBe(400);
    expect(
      (await api("/skybox", { method: "POST", headers: { "content-type": "multipart/form-data; boundary=zz" }, body: "--zz\r\ngarbage" }))
        .status,
    ).toBe(400);
    expect(
      (await api("/skybox", { method: "POST", headers: { "content-type": "application/json" }, body: "x".repeat(33 * 1024 * 1024) }))
        .status,
    ).toBe(413);
    expect(
      (
        await api("/skybox", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ prompt: "x", skybox_style_id: 2, init_image: "not base64 !!" }),
        })
      ).status,
    ).toBe(422);
    expect((await api("/skybox/styles")).status).toBe(200);
  });
  test("Model 4 on Essential is 403; the pending limit is 429", async () => {
    const essential = await admin("accounts", { plan: "essential" });
    const e = createSkyboxClient({ baseUrl: svc.info.url, apiKey: essential.apiKey, retry: 0 });
    const m4 = await failure(e.generate({ prompt: "x", skybox_style_id: 101, variant_id: 1011 }));
    expect(m4).toMatchObject({ status: 403, kind: "plan_forbidden" });
    const free = await admin("accounts", { plan: "free" });
    const f = createSkyboxClient({ baseUrl: svc.info.url, apiKey: free.apiKey, retry: 0 });
    const first = await f.generate({ prompt: "one", skybox_style_id: 2 });
    const limited = await failure(f.generate({ prompt: "two", skybox_style_id: 2 }));
    expect(limited).toMatchObject({ status: 429, kind: "rate_limited" });
    await f.cancelGeneration(first.id);
  });
  test("refusals of the domain keep their answers: unknown upload, unknown edit source, too few credits", async () => {
    const post = (body: object, key = svc.info.apiKey) =>
      api("/skybox", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }, key).then(
        async (r) => [r.status, await r.json()],
      );
    expect(await post({ prompt: "x", skybox_style_id: 2, init_image_hash: "0".repeat(64) })).toEqual([
      422,
      {
        error: "init_image_hash: names no image uploaded before (SHA-256 hex of its bytes)",
        issues: [{ path: ["init_image_hash"], rule: "hash-known", message: "names no image uploaded before (SHA-256 hex of its bytes)" }],
      },
    ]);
    expect(await post({ prompt: "x", skybox_style_id: 101, edit_skybox_id: 999999, center_x: 0, center_y: 0, fov: 60 })).toEqual([
      404,
      { error: "edit_skybox_id: skybox 999999 not found" },
    ]);
    const poor = await admin("accounts", { plan: "business", credits: 0 });
    expect(await post({ prompt: "x", skybox_style_id: 2 }, poor.apiKey)).toEqual([
      422,
      { error: "You have 0 credits remaining. This generation requires 1 credits." },
    ]);
  });
  test("another account's generation is not found", async () => {
    const other = await admin("accounts", { plan: "business" });
    const mine = await client.generate({ prompt: "mine", skybox_style_id: 2 });
    const theirs = createSkyboxClient({ baseUrl: svc.info.url, apiKey: other.apiKey, retry: 0 });
    expect((await failure(theirs.getGeneration(mine.id))).status).toBe(404);
    expect((await failure(theirs.cancelGeneration(mine.id))).status).toBe(404);
    await client.cancelGeneration(mine.id);
  });
});

describe("cancel, delete, history", () => {
  test("cancel makes abort and refunds; cancelling a finished one says so", async () => {
    const g = await client.generate({ prompt: "to cancel", skybox_style_id: 2 });
    expect((await client.cancelGeneration(g.id)).success).toBe(true);
    expect((await client.getGeneration(g.id)).status).toBe("abort");
    expect((await client.cancelGeneration(g.id)).success).toBe(false);
  });
  test("cancel all pending, then none left", async () => {
    await client.generate({ prompt: "p1", skybox_style_id: 2 });
    await client.generate({ prompt: "p2", skybox_style_id: 2 });
    expect((await client.cancelAllPending()).success).toBe(true);
    const again = await client.cancelAllPending();
    expect(again.success).toBe(false);
    expect(again.error).toMatch(/pending/);
  });
  test("delete removes it from history and polling", async () => {
    const g = await client.generate({ prompt: "to delete", skybox_style_id: 2 });
    const r = await client.deleteGeneration(g.id);
    expect(r).toMatchObject({ success: true, id: String(g.id) });
    expect((await failure(client.getGeneration(g.id))).status).toBe(404);
    expect((await client.history({ imagine_id: g.id })).totalCount).toBe(0);
  });
  test("history: filters, search and pages that add up", async () => {
    const all = await client.history({ limit: 100 });
    expect(all.totalCount).toBeGreaterThan(3);
    const pages = [];
    for (let offset = 0; ; offset += 2) {
      const page = await client.history({ limit: 2, offset, order: "ASC" });
      pages.push(...page.data);
      expect(page.totalCount).toBe(all.totalCount);
      if (!page.has_more) break;
    }
    expect(pages.map((g) => g.id)).toEqual(all.data.map((g) => g.id).reverse());
    const search = await client.history({ query: "DUNES" });
    expect(search.data.every((g) => /dunes/i.test(g.prompt ?? ""))).toBe(true);
    expect(search.totalCount).toBeGreaterThan(0);
    expect((await client.history({ status: "abort" })).data.every((g) => g.status === "abort")).toBe(true);
    expect((await failure(client.history({ limit: 500 }))).issues[0]?.path).toEqual(["limit"]);
  });
});

describe("rate limit on polling", () => {
  test("past the per-key rate, 429 with Retry-After", async () => {
    const limited = await startLocalProcess({ "rate-limit": 60 });
    try {
      const g = await (
        await fetch(`${limited.info.url}/api/v1/skybox`, {
          method: "POST",
          headers: { "x-api-key": limited.info.apiKey, "content-type": "application/json" },
          body: JSON.stringify({ prompt: "x", skybox_style_id: 2 }),
        })
      ).json();
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 10; i++) {
        const r = await fetch(`${limited.info.url}/api/v1/imagine/requests/${g.id}`, { headers: { "x-api-key": limited.info.apiKey } });
        statuses.push(r.status);
        retryAfter ??= r.headers.get("retry-after");
      }
      expect(statuses.slice(0, 6).every((s) => s === 200)).toBe(true);
      expect(statuses).toContain(429);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    } finally {
      await limited.stop();
    }
  });
});
