import { createHmac } from "node:crypto";
import { createServer, type Server, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { createSkyboxClient } from "../../src/api/index.ts";
import { startLocalProcess, waitFor } from "../helpers/local-service.ts";

interface Hit {
  at: number;
  body: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

/** A webhook receiver on loopback that answers `statusFor(n, body)` to its n-th request. */
async function receiver(statusFor: (n: number, body: string) => number) {
  const hits: Hit[] = [];
  const server: Server = createServer((req, res) => void answer(req, res));
  async function answer(req: IncomingMessage, res: ServerResponse) {
    let body = "";
    for await (const c of req) body += c;
    const status = statusFor(hits.length, body);
    hits.push({ at: Date.now(), body, status, headers: req.headers });
    res.writeHead(status).end();
  }
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    hits,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "skybox-durable-"));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe("webhooks", () => {
  test("every status is POSTed, signed with the account's secret and timestamped", async () => {
    const hook = await receiver(() => 200);
    const svc = await startLocalProcess({ speed: 100 });
    try {
      const client = createSkyboxClient({ baseUrl: svc.info.url, apiKey: svc.info.apiKey, retry: 0 });
      const g = await client.generate({ prompt: "night sky with stars", skybox_style_id: 2, webhook_url: hook.url });
      await waitFor(() => hook.hits.some((h) => JSON.parse(h.body).status === "complete"), 30_000);
      const statuses = hook.hits.map((h) => JSON.parse(h.body).status as string).filter((s, i, a) => a[i - 1] !== s);
      expect(statuses).toEqual(["pending", "dispatched", "processing", "complete"]);
      for (const h of hook.hits) {
        expect(h.headers["x-signature"]).toBe(createHmac("sha256", svc.info.apiSecret).update(h.body).digest("hex"));
        expect(Math.abs(Number(h.headers["x-timestamp"]) - Date.now() / 1000)).toBeLessThan(30);
      }
      const last = JSON.parse(hook.hits.at(-1)!.body);
      expect(last).toMatchObject({ id: g.id, obfuscated_id: g.obfuscated_id, type: "skybox", prompt: "night sky with stars" });
      expect(last.file_url).toMatch(/image\.jpg$/);
    } finally {
      await svc.stop();
      await hook.close();
    }
  });
  test("a failing receiver is retried after 1 and 5 minutes, divided by --speed", async () => {
    // Fails the first two deliveries of the pending event, then accepts everything.
    let pendingFailures = 0;
    const hook = await receiver((_n, body) => (JSON.parse(body).status === "pending" && pendingFailures++ < 2 ? 500 : 200));
    const svc = await startLocalProcess({ speed: 600 });
    try {
      const client = createSkyboxClient({ baseUrl: svc.info.url, apiKey: svc.info.apiKey, retry: 0 });
      const g = await client.generate({ prompt: "storm", skybox_style_id: 2, webhook_url: hook.url });
      await waitFor(() => hook.hits.filter((h) => JSON.parse(h.body).status === "pending" && h.status === 200).length > 0, 30_000);
      const pendingHits = hook.hits.filter((h) => JSON.parse(h.body).id === g.id && JSON.parse(h.body).status === "pending");
      const [first, second, third] = pendingHits.map((h) => h.at);
      // 60 s / 600 = 100 ms, then 300 s / 600 = 500 ms. Lower bounds only: a retry never
      // comes early, but a loaded machine may deliver it late (the exact schedule is
      // checked in webhook-sender.test.ts).
      expect(pendingHits.map((h) => h.status)).toEqual([500, 500, 200]);
      expect(second! - first!).toBeGreaterThanOrEqual(90);
      expect(third! - second!).toBeGreaterThanOrEqual(450);
    } finally {
      await svc.stop();
      await hook.close();
    }
  });
});

describe("restart survival", () => {
  test("killed mid-generation, the service resumes it to complete; files and pending webhooks survive", async () => {
    const dataDir = tempDir();
    let receiverUp = false;
    const hook = await receiver(() => (receiverUp ? 200 : 503));
    const first = await startLocalProcess({ speed: 4 }, dataDir);
    const client1 = createSkyboxClient({ baseUrl: first.info.url, apiKey: first.info.apiKey, retry: 0 });
    const done = await client1.generate({ prompt: "canyon at sunset", skybox_style_id: 2 });
    await waitFor(async () => (await client1.getGeneration(done.id)).status === "complete", 30_000, 100);
    const inFlight = await client1.generate({ prompt: "ocean at noon", skybox_style_id: 2, webhook_url: hook.url });
    await waitFor(async () => (await client1.getGeneration(inFlight.id)).status === "processing", 20_000, 50);
    await waitFor(() => hook.hits.length > 0, 10_000);
    await first.kill("SIGKILL");

    receiverUp = true;
    const second = await startLocalProcess({ speed: 4 }, dataDir);
    try {
      expect(second.info.apiKey).toBe(first.info.apiKey);
      const client2 = createSkyboxClient({ baseUrl: second.info.url, apiKey: second.info.apiKey, retry: 0 });
      const resumed = await waitFor(
        async () => {
          const g = await client2.getGeneration(inFlight.id);
          return g.status === "complete" && g;
        },
        60_000,
        100,
      );
      expect(resumed.file_url).toMatch(/image\.jpg$/);
      const old = await client2.getGeneration(done.id);
      expect((await fetch(old.file_url)).status).toBe(200);
      // The delivery that failed before the kill arrives after the restart.
      await waitFor(() => hook.hits.some((h) => h.status === 200), 30_000);
    } finally {
      await second.stop();
      await hook.close();
    }
  });
});

describe("closed mid-job", () => {
  test("closed while a generation is processing, the service stops it without a stray error; the next start completes it", async () => {
    const { startLocalSkyboxService } = await import("../../src/local/index.ts");
    const dataDir = tempDir();
    const stray: unknown[] = [];
    const onStray = (error: unknown) => stray.push(error);
    process.on("unhandledRejection", onStray);
    const hook = await receiver(() => 200);
    const log: string[] = [];
    try {
      const first = await startLocalSkyboxService({
        port: 0,
        dataDir,
        speed: 8,
        imageScale: 1 / 16,
        allowPrivateWebhooks: true,
        log: (l) => log.push(l),
      });
      const client1 = createSkyboxClient({ baseUrl: first.url, apiKey: first.apiKey, retry: 0 });
      const created = await client1.generate({ prompt: "ocean at noon", skybox_style_id: 2, webhook_url: hook.url });
      await waitFor(async () => (await client1.getGeneration(created.id)).status === "processing", 20_000, 50);
      await first.close();
      // Past the moment its render and its next step would have come.
      await new Promise((r) => setTimeout(r, 3000));
      expect(stray).toEqual([]);
      expect(log.filter((l) => l.includes("failed"))).toEqual([]);

      const second = await startLocalSkyboxService({
        port: 0,
        dataDir,
        speed: 8,
        imageScale: 1 / 16,
        allowPrivateWebhooks: true,
        log: (l) => log.push(l),
      });
      try {
        const client2 = createSkyboxClient({ baseUrl: second.url, apiKey: second.apiKey, retry: 0 });
        const resumed = await waitFor(
          async () => {
            const g = await client2.getGeneration(created.id);
            return g.status === "complete" && g;
          },
          60_000,
          100,
        );
        expect(resumed.file_url).toMatch(/image\.jpg$/);
      } finally {
        await second.close();
      }
      expect(stray).toEqual([]);
    } finally {
      process.off("unhandledRejection", onStray);
      await hook.close();
    }
  });
});
