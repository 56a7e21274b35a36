import { createHmac } from "node:crypto";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { signWebhook } from "../../src/api/rules/webhook-signature.ts";
import { WEBHOOK_RETRY_DELAYS_MS, WebhookSender, type WebhookAttempt, type WebhookSenderOptions } from "../../src/local/webhook-sender.ts";

const SECRET = "sk_local_secret_value";

interface Received {
  headers: IncomingHttpHeaders;
  raw: Buffer;
}

let dir: string;
const cleanups: Array<() => Promise<void> | void> = [];
const logLines: string[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "webhook-sender-"));
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  // Whatever happened in the test, the signing secret never reached the log.
  expect(logLines.filter((line) => line.includes(SECRET))).toEqual([]);
  logLines.length = 0;
  await rm(dir, { recursive: true, force: true });
});

/** A loopback receiver; `respond` decides each answer (it may also never answer). */
async function receiver(respond: (request: Received, index: number, res: ServerResponse) => void) {
  const received: Received[] = [];
  let active = 0;
  let maxActive = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = { headers: req.headers, raw: Buffer.concat(chunks) };
      received.push(request);
      maxActive = Math.max(maxActive, ++active);
      res.on("close", () => active--);
      respond(request, received.length - 1, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/skybox?token=abc`;
  return { url, received, maxActive: () => maxActive };
}

const answer = (status: number) => (_request: Received, _index: number, res: ServerResponse) => res.writeHead(status).end("x");

async function sender(options: Partial<WebhookSenderOptions> = {}) {
  const attempts: WebhookAttempt[] = [];
  const instance = new WebhookSender({ stateFile: join(dir, "state", "webhooks.json"), log: (line) => logLines.push(line), ...options });
  instance.onAttempt = (info) => attempts.push(info);
  cleanups.push(() => instance.close());
  await instance.start();
  return { instance, attempts };
}

async function persisted(): Promise<Array<{ id: string; attempts: number }>> {
  return JSON.parse(await readFile(join(dir, "state", "webhooks.json"), "utf8")).deliveries;
}

describe("WebhookSender", () => {
  it("signs the raw body with HMAC-SHA256 and stamps the send time", async () => {
    const hook = await receiver(answer(200));
    const { instance, attempts } = await sender();
    const body = { id: 7, status: "complete", prompt: "aurora über fjord ✨" };
    const id = instance.send(hook.url, body, SECRET);
    await instance.idle(5000);

    expect(hook.received).toHaveLength(1);
    const [request] = hook.received;
    const expected = createHmac("sha256", SECRET).update(request!.raw).digest("hex");
    expect(request!.headers["x-signature"]).toBe(expected);
    expect(request!.raw.toString("utf8")).toBe(JSON.stringify(body));
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(Math.abs(Number(request!.headers["x-timestamp"]) - Date.now() / 1000)).toBeLessThan(5);
    expect(await signWebhook(JSON.stringify(body), SECRET)).toBe(expected);
    expect(attempts).toEqual([{ id, url: hook.url, attempt: 1, ok: true, status: 200, error: undefined, nextDelayMs: undefined }]);
    expect(instance.pendingCount).toBe(0);
    await instance.close();
    expect(await persisted()).toEqual([]);
  });

  it("an attempt that throws inside the service is logged, and the URL's next deliveries still go out", async () => {
    const hook = await receiver(answer(200));
    const { instance } = await sender();
    let calls = 0;
    instance.onAttempt = () => {
      if (++calls === 1) throw new Error("a listener failed");
    };
    instance.send(hook.url, { n: 1 }, SECRET);
    instance.send(hook.url, { n: 2 }, SECRET);
    await waitUntil(() => hook.received.length === 2 && calls === 2);
    expect(logLines.some((l) => l.includes("attempt failed inside the service: a listener failed"))).toBe(true);
  });

  it("retries after 1 min and 5 min (scaled by speed) until the receiver accepts", async () => {
    const hook = await receiver((request, index, res) => res.writeHead(index < 2 ? 500 : 204).end());
    const { instance, attempts } = await sender({ speed: 600 });
    instance.send(hook.url, { status: "processing" }, SECRET);
    await instance.idle(10_000);

    expect(attempts.map(({ attempt, ok, status, nextDelayMs }) => ({ attempt, ok, status, nextDelayMs }))).toEqual([
      { attempt: 1, ok: false, status: 500, nextDelayMs: 60_000 / 600 },
      { attempt: 2, ok: false, status: 500, nextDelayMs: 300_000 / 600 },
      { attempt: 3, ok: true, status: 204, nextDelayMs: undefined },
    ]);
    expect(hook.received).toHaveLength(3);
    for (const request of hook.received) {
      expect(request.headers["x-signature"]).toBe(createHmac("sha256", SECRET).update(request.raw).digest("hex"));
    }
    expect(logLines.some((line) => line.includes("retry in 100 ms"))).toBe(true);
    expect(logLines.some((line) => line.includes("token=abc"))).toBe(false);
  });

  it("gives up after the fifth retry, with the documented series of delays", async () => {
    expect(WEBHOOK_RETRY_DELAYS_MS).toEqual([60_000, 300_000, 900_000, 3_600_000, 21_600_000]);
    const hook = await receiver(answer(503));
    const speed = 36_000; // 6 h -> 600 ms
    const { instance, attempts } = await sender({ speed });
    instance.send(hook.url, { status: "error" }, SECRET);
    await instance.idle(10_000);

    expect(hook.received).toHaveLength(6);
    expect(attempts.map((info) => info.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(attempts.every((info) => !info.ok && info.status === 503)).toBe(true);
    expect(attempts.map((info) => info.nextDelayMs)).toEqual([...WEBHOOK_RETRY_DELAYS_MS.map((ms) => ms / speed), undefined]);
    expect(instance.pendingCount).toBe(0);
    expect(logLines.at(-1)).toMatch(/attempt 6 .* giving up/);
    await instance.close();
    expect(await persisted()).toEqual([]);
  });

  it("counts network errors, timeouts and redirects as failures", async () => {
    const silent = await receiver(() => undefined);
    const redirect = await receiver((_request, _index, res) => res.writeHead(302, { location: "/elsewhere" }).end());
    const refused = await receiver(answer(200));
    const refusedUrl = refused.url;
    await cleanups.pop()!(); // close that receiver: its port now refuses connections
    const { instance, attempts } = await sender({ timeoutMs: 200 });
    instance.send(silent.url, {}, SECRET);
    instance.send(redirect.url, {}, SECRET);
    instance.send(refusedUrl, {}, SECRET);
    await waitUntil(() => attempts.length === 3);

    const byUrl = (url: string) => attempts.find((info) => info.url === url)!;
    expect(byUrl(silent.url)).toMatchObject({ ok: false, error: expect.stringMatching(/timed out after 200 ms/), nextDelayMs: 60_000 });
    expect(byUrl(redirect.url)).toMatchObject({ ok: false, status: 302 });
    expect(byUrl(refusedUrl)).toMatchObject({ ok: false, error: expect.stringMatching(/ECONNREFUSED/) });
    expect(instance.pendingCount).toBe(3);
  });

  it("sends one request at a time per URL, in order", async () => {
    const hook = await receiver((_request, index, res) => setTimeout(() => res.writeHead(200).end(), index === 0 ? 150 : 5));
    const { instance } = await sender();
    for (let n = 0; n < 6; n++) instance.send(hook.url, { n }, SECRET);
    await instance.idle(10_000);
    expect(hook.received.map((request) => JSON.parse(request.raw.toString()).n)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(hook.maxActive()).toBe(1);
  });

  it("resumes a failed delivery after a restart and sends it at once when it is overdue", async () => {
    let accept = false;
    const hook = await receiver((_request, _index, res) => res.writeHead(accept ? 200 : 500).end());
    const first = await sender(); // speed 1: the retry is due a real minute later
    const id = first.instance.send(hook.url, { status: "complete" }, SECRET);
    await waitUntil(() => first.attempts.length === 1);
    await first.instance.close();
    expect(await persisted()).toMatchObject([{ id, attempts: 1 }]);
    expect((await stat(join(dir, "state", "webhooks.json"))).mode & 0o777).toBe(0o600);

    accept = true;
    // The second process starts 61 s later: the retry is overdue and must go out promptly.
    const second = await sender({ now: () => Date.now() + 61_000 });
    expect(second.instance.pendingCount).toBe(1);
    await second.instance.idle(5000);
    expect(second.attempts).toMatchObject([{ id, attempt: 2, ok: true, status: 200 }]);
    expect(hook.received).toHaveLength(2);
    const last = hook.received[1]!;
    expect(last.headers["x-signature"]).toBe(createHmac("sha256", SECRET).update(last.raw).digest("hex"));
  });

  it("keeps a delivery interrupted by close() and sends it after restart", async () => {
    let hang = true;
    const hook = await receiver((_request, _index, res) => (hang ? undefined : res.writeHead(200).end()));
    const first = await sender();
    const id = first.instance.send(hook.url, { status: "pending" }, SECRET);
    await waitUntil(() => hook.received.length === 1);
    await first.instance.close();
    expect(first.attempts).toEqual([]);

    hang = false;
    const second = await sender();
    await second.instance.idle(5000);
    expect(second.attempts).toMatchObject([{ id, attempt: 1, ok: true }]);
  });

  it("moves an unreadable state file aside and still works", async () => {
    const hook = await receiver(answer(200));
    const stateFile = join(dir, "webhooks.json");
    await writeFile(stateFile, "{ not json");
    const { instance } = await sender({ stateFile });
    instance.send(hook.url, { ok: 1 }, SECRET);
    await instance.idle(5000);
    expect(hook.received).toHaveLength(1);
    expect(logLines.some((line) => line.includes("unreadable"))).toBe(true);
    expect(() => instance.send("ftp://example.test/x", {}, SECRET)).toThrow(/http or https/);
  });
});

function waitUntil(predicate: () => boolean, ms = 5000): Promise<void> {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + ms;
    const check = () => {
      if (predicate()) resolve();
      else if (Date.now() > deadline) reject(new Error("condition not met in time"));
      else setTimeout(check, 10);
    };
    check();
  });
}
