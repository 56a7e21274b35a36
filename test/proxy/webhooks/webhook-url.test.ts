/**
 * The proxy owns `webhook_url`: whatever a browser sends (JSON field, form field, multipart
 * part, query parameter) is dropped for the proxy's own receiver, or for none; only
 * addresses the server lists pass.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { createSkyboxClient } from "../../../src/api/index.ts";
import { startSkyboxProxyServer, type SkyboxProxyServer } from "../../../src/proxy/index.ts";
import { creationResponse } from "../../fixtures/api-shapes.ts";
import { startLocalProcess, waitFor, type LocalProcess } from "../../helpers/local-service.ts";
import { startRecordingServer } from "../../helpers/recording-server.ts";
import { startProxyPair } from "../proxy-fixture.ts";

const INTERNAL = "http://127.0.0.1:1/internal-admin";

/** The four ways a browser can name a webhook_url, each a POST /skybox through `api`. */
function sendings(api: string, hook: string): [string, () => Promise<Response>][] {
  const json = (extra = "") =>
    fetch(`${api}/api/v1/skybox${extra}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ prompt: "json", skybox_style_id: 2, ...(extra ? {} : { webhook_url: hook }) }),
    });
  const multipart = new FormData();
  multipart.append("prompt", "multipart");
  multipart.append("skybox_style_id", "2");
  multipart.append("webhook_url", hook);
  return [
    ["JSON field", () => json()],
    [
      "URL-encoded field",
      () =>
        fetch(`${api}/api/v1/skybox`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ prompt: "form", skybox_style_id: "2", webhook_url: hook }),
        }),
    ],
    ["multipart part", () => fetch(`${api}/api/v1/skybox`, { method: "POST", body: multipart })],
    ["query parameter", () => json(`?webhook_url=${encodeURIComponent(hook)}`)],
  ];
}

describe("what the upstream is told", () => {
  let pair: Awaited<ReturnType<typeof startProxyPair>>;
  beforeAll(async () => {
    pair = await startProxyPair(() => ({ body: creationResponse }), {
      publicUrl: "https://app.example.test",
      allowedWebhookUrls: ["https://hooks.example.test/skybox"],
    });
  });
  afterAll(() => pair.close());
  beforeEach(() => {
    pair.upstream.requests.length = 0;
  });

  const forwarded = async () => {
    const r = pair.upstream.last();
    const type = String(r.headers["content-type"]);
    const inBody = type.startsWith("application/json")
      ? (r.json() as Record<string, unknown>).webhook_url
      : type.startsWith("multipart/")
        ? (await r.form()).getAll("webhook_url")
        : new URLSearchParams(r.body.toString()).getAll("webhook_url");
    return { inBody, inQuery: r.query.getAll("webhook_url") };
  };

  test("a browser's webhook_url, however sent, becomes the proxy's own receiver", async () => {
    for (const [how, send] of sendings(pair.api, INTERNAL)) {
      expect((await send()).status, how).toBe(200);
      const { inBody, inQuery } = await forwarded();
      expect([inBody].flat(), how).toEqual(["https://app.example.test/skybox/webhook"]);
      expect(inQuery, how).toEqual([]);
    }
  });

  test("an address the server lists passes as sent; a near miss does not", async () => {
    for (const [hook, expected] of [
      ["https://hooks.example.test/skybox", "https://hooks.example.test/skybox"],
      ["https://hooks.example.test/skybox/../admin", "https://app.example.test/skybox/webhook"],
      ["https://hooks.example.test:8443/skybox", "https://app.example.test/skybox/webhook"],
    ]) {
      await sendings(pair.api, hook!)[0]![1]();
      expect((await forwarded()).inBody, hook).toBe(expected);
    }
  });

  test("without publicUrl no webhook_url is forwarded at all", async () => {
    const bare = await startProxyPair(() => ({ body: creationResponse }));
    try {
      for (const [how, send] of sendings(bare.api, INTERNAL)) {
        await send();
        expect(bare.upstream.last().body.includes(Buffer.from("webhook_url")), how).toBe(false);
        expect(bare.upstream.last().query.has("webhook_url"), how).toBe(false);
      }
    } finally {
      await bare.close();
    }
  });
});

describe("with the local service behind the proxy", () => {
  let svc: LocalProcess;
  let proxy: SkyboxProxyServer;
  let recorder: Awaited<ReturnType<typeof startRecordingServer>>;
  beforeAll(async () => {
    svc = await startLocalProcess();
    recorder = await startRecordingServer(() => ({ body: {} }));
    proxy = await startSkyboxProxyServer({
      port: 0,
      apiKey: svc.info.apiKey,
      apiSecret: svc.info.apiSecret,
      upstream: svc.info.url,
      log: () => {},
    });
  });
  afterAll(async () => {
    await proxy?.close();
    await recorder?.close();
    await svc?.stop();
  });

  test("a browser-sent webhook_url to a private address is never called", async () => {
    const client = createSkyboxClient({ baseUrl: svc.info.url, apiKey: svc.info.apiKey, retry: 0 });
    const ids: number[] = [];
    for (const [how, send] of sendings(`${proxy.url}/skybox`, `${recorder.url}/internal-admin`)) {
      const res = await send();
      expect(res.status, how).toBe(200);
      ids.push(((await res.json()) as { id: number }).id);
    }
    for (const id of ids) await waitFor(async () => (await client.getGeneration(id)).status === "complete", 60_000);
    // Webhooks leave as statuses change; give the last ones time to arrive, had they been sent.
    await new Promise((r) => setTimeout(r, 1000));
    expect(recorder.requests).toEqual([]);
    for (const id of ids) expect((await client.getGeneration(id)).webhook_url ?? null).toBeNull();
  }, 120_000);
});
