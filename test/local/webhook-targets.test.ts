import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { isLoopbackHost, isPrivateAddress, WebhookTargets } from "../../src/local/records/webhook-targets.ts";
import { startLocalSkyboxService, type LocalSkyboxService } from "../../src/local/index.ts";
import { WebhookSender, type WebhookAttempt } from "../../src/local/webhook-sender.ts";
import { startLocalProcess, type LocalProcess } from "../helpers/local-service.ts";

const REFUSAL =
  /^webhook_url: must not be a private or loopback address \((.+)\); start the local service with --allow-private-webhooks to allow it$/;

describe("which addresses are private", () => {
  test.each([
    "127.0.0.1",
    "127.9.9.9",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "::1",
    "::",
    "fd00::1",
    "fe80::1",
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    "224.0.0.1",
    "203.0.113.5",
    "2001:db8::1",
    "64:ff9b::7f00:1",
  ])("%s is private", (ip) => {
    expect(isPrivateAddress(ip)).toBe(true);
  });
  test.each(["8.8.8.8", "1.1.1.1", "172.32.0.1", "93.184.216.34", "2606:4700::1111", "::ffff:8.8.8.8"])("%s is public", (ip) => {
    expect(isPrivateAddress(ip)).toBe(false);
  });
});

describe("WebhookTargets", () => {
  const dns: Record<string, string[]> = {
    "hooks.example.test": ["93.184.216.34"],
    "rebind.example.test": ["93.184.216.34", "10.0.0.7"],
    "v6.example.test": ["::1"],
  };
  const lookup = async (host: string) => {
    if (host === "slow.example.test") return new Promise<string[]>(() => {});
    const found = dns[host];
    if (!found) throw new Error(`ENOTFOUND ${host}`);
    return found;
  };
  const targets = new WebhookTargets(false, lookup);
  const refusalOf = async (url: string) => {
    try {
      await targets.check("webhook_url", url);
      return null;
    } catch (error) {
      return (error as Error).message;
    }
  };

  test("IP literals in every spelling, and localhost names, are refused without DNS", async () => {
    for (const url of [
      "http://127.0.0.1:8080/hook",
      "http://2130706433/",
      "http://0x7f.1/",
      "http://[::1]:9/",
      "http://[::ffff:127.0.0.1]/",
      "https://169.254.169.254/latest",
      "http://localhost:3000/",
      "http://api.localhost/",
      "http://LOCALHOST./",
    ])
      expect(await refusalOf(url), url).toMatch(REFUSAL);
    expect(await refusalOf("http://2130706433/")).toContain("(127.0.0.1)");
  });

  test("a host name is refused when any address it resolves to is private, and the sentence says which", async () => {
    expect(await refusalOf("https://hooks.example.test/skybox")).toBeNull();
    expect(await refusalOf("https://rebind.example.test/skybox")).toBe(
      "webhook_url: must not be a private or loopback address (rebind.example.test is 10.0.0.7); start the local service with --allow-private-webhooks to allow it",
    );
    expect(await refusalOf("http://v6.example.test/")).toMatch(REFUSAL);
  });

  test("a name that does not resolve (or not in time) passes the request and is refused at delivery", async () => {
    expect(await refusalOf("https://nowhere.example.test/")).toBeNull();
    expect(await refusalOf("https://slow.example.test/")).toBeNull();
    await expect(targets.privateAddressOf("https://nowhere.example.test/", true)).rejects.toThrow(
      "could not resolve nowhere.example.test to check it: ENOTFOUND nowhere.example.test",
    );
  }, 10_000);

  test("values the request schema refuses are left to it; the allowance lets everything through", async () => {
    for (const value of [undefined, null, "", 42, "ftp://127.0.0.1/", "not a url"])
      await expect(targets.check("webhook_url", value)).resolves.toBeUndefined();
    await expect(new WebhookTargets(true, lookup).check("webhook_url", "http://127.0.0.1/")).resolves.toBeUndefined();
  });
});

describe("the sender checks again before each delivery", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "webhook-targets-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  test("a delivery to a private address is given up without a request and without retries", async () => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/internal-admin`;
    const sender = new WebhookSender({
      stateFile: join(dir, "webhooks.json"),
      speed: 1000,
      privateAddressOf: (u) => new WebhookTargets(false).privateAddressOf(u, true),
    });
    const attempts: WebhookAttempt[] = [];
    sender.onAttempt = (a) => attempts.push(a);
    await sender.start();
    try {
      sender.send(url, { id: 1 }, "secret-secret");
      await sender.idle(5_000);
      expect(attempts).toMatchObject([{ attempt: 1, ok: false, error: "refused: the URL reaches the private address 127.0.0.1" }]);
      expect(attempts[0]!.nextDelayMs).toBeUndefined();
      expect(requests).toBe(0);
      expect(sender.pendingCount).toBe(0);
    } finally {
      await sender.close();
      server.close();
    }
  });
});

describe("which listening hosts are loopback (private webhooks allowed by default)", () => {
  test.each(["127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost"])("%s is loopback", (host) => expect(isLoopbackHost(host)).toBe(true));
  test.each(["0.0.0.0", "::", "192.168.1.5", "10.0.0.1", "example.com"])("%s is not", (host) => expect(isLoopbackHost(host)).toBe(false));
});

describe("the local service", () => {
  // What a service listening on another interface does (here, as `allowPrivateWebhooks: false`
  // says it, on loopback: tests listen nowhere else).
  let strict: LocalSkyboxService & { dir: string };
  // `babylon-skybox local` as users start it: loopback, no flag.
  let allowing: LocalProcess;
  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), "skybox-strict-"));
    const started = startLocalSkyboxService({ port: 0, dataDir: dir, allowPrivateWebhooks: false, log: () => {} });
    [strict, allowing] = await Promise.all([started.then((s) => Object.assign(s, { dir })), startLocalProcess()]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([strict?.close().then(() => rm(strict.dir, { recursive: true, force: true })), allowing?.stop()]);
  });
  const post = (svc: { info: { url: string; apiKey: string } } | LocalSkyboxService, path: string, body: object) => {
    const info = "info" in svc ? svc.info : svc;
    return fetch(`${info.url}/api/v1${path}`, {
      method: "POST",
      headers: { "x-api-key": info.apiKey, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  };

  test("refuses loopback and private webhook targets on generation, export and batch creation, naming the field; nothing is charged", async () => {
    const before = (
      await (await fetch(`${strict.url}/_admin/accounts`, { headers: { authorization: `Bearer ${strict.adminToken}` } })).json()
    )[0].credits;
    const cases: [string, object][] = [
      ["/skybox", { prompt: "a", skybox_style_id: 2, webhook_url: "http://127.0.0.1:9/internal-admin" }],
      ["/skybox", { prompt: "a", skybox_style_id: 2, webhook_url: "http://localhost:5173/skybox/webhook" }],
      ["/skybox/export", { skybox_id: "0123456789abcdef0123456789abcdef", type_id: 1, webhook_url: "http://[::1]/x" }],
      ["/skybox/batch", { prompt: "a", skybox_style_id: 2, quantity: 2, webhook_url: "http://192.168.0.10/hook" }],
    ];
    for (const [path, body] of cases) {
      const r = await post(strict, path, body);
      const answer = await r.json();
      expect(r.status, path).toBe(422);
      expect(answer.error).toMatch(REFUSAL);
      expect(answer.issues).toMatchObject([{ path: ["webhook_url"], rule: "webhook-public" }]);
    }
    const after = (
      await (await fetch(`${strict.url}/_admin/accounts`, { headers: { authorization: `Bearer ${strict.adminToken}` } })).json()
    )[0].credits;
    expect(after).toBe(before);
  });

  // A public literal's acceptance is WebhookTargets' (above): accepted here, it would be delivered off this machine.
  test("refuses the documentation ranges, and accepts loopback when it listens on loopback (no flag)", async () => {
    expect((await post(strict, "/skybox", { prompt: "a", skybox_style_id: 2, webhook_url: "http://203.0.113.5/hook" })).status).toBe(422);
    expect((await post(allowing, "/skybox", { prompt: "a", skybox_style_id: 2, webhook_url: "http://127.0.0.1:9/hook" })).status).toBe(200);
  });
});
