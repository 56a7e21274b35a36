import { createHmac } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { createSkyboxProxy, signWebhook, verifyWebhookSignature } from "../../../src/proxy/index.ts";
import { batchRecord, completeRecord, exportRecord } from "../../fixtures/api-shapes.ts";
import { KEY, SECRET, startProxyPair, Transcript } from "../proxy-fixture.ts";

let pair: Awaited<ReturnType<typeof startProxyPair>>;
const transcript = new Transcript();
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  pair = await startProxyPair(() => ({ body: {} }), { events: { heartbeatMs: 100 } });
});
afterAll(() => pair.close());
beforeEach(() => {
  transcript.seen.length = 0;
});

let seq = 0;
/** A status message as the upstream sends it; each one distinct unless `body` is given. */
async function deliver(record: object, init: { timestamp?: number; signature?: string; body?: string } = {}) {
  const body = init.body ?? JSON.stringify({ ...record, updated_at: `2026-11-21T05:00:${String(seq++ % 60).padStart(2, "0")}+00:00` });
  return fetch(`${pair.api}/webhook`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-timestamp": String(init.timestamp ?? now()),
      "x-signature": init.signature ?? (await signWebhook(body, SECRET)),
    },
    body,
  });
}

/** Reads a text/event-stream with fetch, as an EventSource would, and splits it into events. */
async function subscribe(channels: string[], api = pair.api) {
  const aborter = new AbortController();
  const res = await fetch(`${api}/events?${channels.map((c) => `channel=${c}`).join("&")}`, { signal: aborter.signal });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  let buffer = "";
  const raw: string[] = [];
  return {
    res,
    raw,
    /** The next event (comments skipped unless asked for). */
    async next(withComments = false): Promise<{ event?: string; data?: string; comment?: string }> {
      for (;;) {
        const end = buffer.indexOf("\n\n");
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          raw.push(block);
          const fields = Object.fromEntries(
            block
              .split("\n")
              .map((l) =>
                l.startsWith(":") ? ["comment", l.slice(1).trim()] : [l.slice(0, l.indexOf(":")), l.slice(l.indexOf(":") + 1).trim()],
              ),
          );
          if (fields.event || withComments) return fields;
          continue;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error("stream ended");
        buffer += new TextDecoder().decode(value);
      }
    },
    close: () => aborter.abort(),
  };
}

describe("webhook receiver", () => {
  test("the signature helper is the spec's: hex HMAC-SHA256 of the raw body", async () => {
    const sig = await signWebhook('{"a":1}', "s");
    expect(sig).toBe(createHmac("sha256", "s").update('{"a":1}').digest("hex"));
    expect(await verifyWebhookSignature('{"a":1}', sig, "s")).toBe(true);
    expect(await verifyWebhookSignature('{"a":1}', sig.toUpperCase(), "s")).toBe(true);
    expect(await verifyWebhookSignature('{"a":2}', sig, "s")).toBe(false);
    expect(await verifyWebhookSignature('{"a":1}', sig.slice(2), "s")).toBe(false);
  });

  test("a signed, fresh message is accepted; bad signatures, stale or future timestamps are 401", async () => {
    expect((await deliver(completeRecord)).status).toBe(200);
    expect((await deliver(completeRecord, { signature: await signWebhook("other body", SECRET) })).status).toBe(401);
    expect((await deliver(completeRecord, { signature: "zz" })).status).toBe(401);
    const body = JSON.stringify(completeRecord);
    expect((await deliver({}, { body, signature: await signWebhook(body, "wrong secret") })).status).toBe(401);
    expect((await deliver(completeRecord, { timestamp: now() - 301 })).status).toBe(401);
    expect((await deliver(completeRecord, { timestamp: now() + 301 })).status).toBe(401);
    expect((await deliver(completeRecord, { timestamp: now() - 290 })).status).toBe(200);
    const missing = await fetch(`${pair.api}/webhook`, {
      method: "POST",
      headers: { "x-signature": await signWebhook(body, SECRET) },
      body,
    });
    expect(missing.status).toBe(401);
  });

  test("a replayed body is refused, with a fresh timestamp too", async () => {
    const body = JSON.stringify({ ...completeRecord, updated_at: "replay-test" });
    expect((await deliver({}, { body })).status).toBe(200);
    expect((await deliver({}, { body })).status).toBe(409);
    expect((await deliver({}, { body, timestamp: now() + 5 })).status).toBe(409);
  });

  test("without an API secret there is no receiver and no relay", async () => {
    const proxy = createSkyboxProxy({ apiKey: KEY, upstream: pair.upstream.url, log: () => {} });
    expect((await proxy(new Request("http://127.0.0.1/skybox/webhook", { method: "POST", body: "{}" }))).status).toBe(404);
    expect((await proxy(new Request("http://127.0.0.1/skybox/events?channel=a"))).status).toBe(404);
    const config = await (await proxy(new Request("http://127.0.0.1/skybox/config"))).json();
    expect(config).toMatchObject({ webhooksRelayed: false, eventsUrl: null });
  });
});

describe("server-sent event relay", () => {
  test("an accepted webhook reaches the subscribers of its channel, rewritten and without secrets", async () => {
    const echoing = { ...completeRecord, file_url: "http://127.0.0.1:8790/files/46/image.jpg", note: `key ${KEY}` };
    const sub = await subscribe([completeRecord.pusher_channel, batchRecord.pusher_channel]);
    const bystander = await subscribe(["status_update_someone_else"]);
    try {
      expect(sub.res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
      expect(sub.res.headers.get("cache-control")).toContain("no-cache");
      const res = await deliver(echoing);
      expect(await res.json()).toMatchObject({ received: true, channel: completeRecord.pusher_channel, delivered: 1 });
      const event = await sub.next();
      expect(event.event).toBe("status_update");
      const data = JSON.parse(event.data!);
      expect(data).toMatchObject({ id: 46, status: "complete", file_url: "/skybox/assets/http/127.0.0.1:8790/files/46/image.jpg" });
      expect(event.data).not.toContain(KEY);
      await deliver(batchRecord);
      expect(JSON.parse((await sub.next()).data!).quantity).toBe(2);
      expect(bystander.raw.some((b) => b.includes("status_update\n"))).toBe(false);
      // The relayed file host was learned: refused as a private address, not as an unknown host.
      expect((await (await fetch(`${pair.url}${data.file_url}`)).json()).error).toMatch(/private address/);
    } finally {
      sub.close();
      bystander.close();
    }
  });

  test("records without pusher_channel go to the channel of their kind", async () => {
    const { pusher_channel: _, ...bare } = exportRecord;
    const sub = await subscribe([exportRecord.pusher_channel]);
    try {
      expect(await (await deliver(bare)).json()).toMatchObject({ channel: exportRecord.pusher_channel, delivered: 1 });
      expect(JSON.parse((await sub.next()).data!).id).toBe(exportRecord.id);
    } finally {
      sub.close();
    }
  });

  test("heartbeats keep an idle stream alive", async () => {
    const sub = await subscribe(["status_update_idle"]);
    try {
      const comments: string[] = [];
      while (comments.length < 3) comments.push((await sub.next(true)).comment ?? "");
      expect(comments.filter((c) => c === "heartbeat").length).toBeGreaterThanOrEqual(1);
    } finally {
      sub.close();
    }
  });

  test("subscribers are bounded, and a disconnected one frees its place", async () => {
    // Its own proxy: other tests' disconnections are noticed asynchronously.
    const own = await startProxyPair(() => ({ body: {} }), { events: { maxSubscribers: 3 } });
    const subs = await Promise.all([1, 2, 3].map((i) => subscribe([`status_update_full${i}`], own.api)));
    try {
      const refused = await fetch(`${own.api}/events?channel=status_update_x`);
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("5");
      subs[0]!.close();
      let status = 0;
      for (let i = 0; i < 100 && status !== 200; i++) {
        const res = await fetch(`${own.api}/events?channel=status_update_y`);
        status = res.status;
        await res.body?.cancel();
        if (status !== 200) await new Promise((r) => setTimeout(r, 20));
      }
      expect(status).toBe(200);
    } finally {
      subs.forEach((s) => s.close());
      await own.close();
    }
  });

  test("channel parameters are checked", async () => {
    for (const q of ["", "channel=", "channel=a%20b", "channel=../x"]) expect((await fetch(`${pair.api}/events?${q}`)).status, q).toBe(400);
  });

  test("no byte of a relayed session holds the key or secret", async () => {
    const sub = await subscribe([completeRecord.pusher_channel]);
    try {
      await transcript.record(await deliver({ ...completeRecord, secret: SECRET, key: KEY }));
      const event = await sub.next();
      transcript.seen.push(sub.raw.join("\n\n"), JSON.stringify(event));
      expect(event.data).toContain("[redacted]");
      expect(transcript.leaks([KEY, SECRET])).toEqual([]);
    } finally {
      sub.close();
    }
  });
});
