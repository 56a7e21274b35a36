/**
 * Several proxy instances behind one Redis: the relay, the replay guard and the rate limit
 * are shared; an instance dying loses nothing for browsers on the others; Redis dying makes
 * every instance fail closed within 5 s, and they recover by themselves.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Generation } from "../../../src/api/index.ts";
import { createSkyboxClient } from "../../../src/api/index.ts";
import { createStatusTracker } from "../../../src/status/index.ts";
import { waitFor } from "../../helpers/local-service.ts";
import { ADMIN, openStream, startDeployment, USER_HEADER, type Deployment } from "./deployment.ts";

let d: Deployment;
let g: Generation;
let seq = 0;
const alice = { [USER_HEADER]: "alice" };
/** A status message of `g`, distinct from every other one sent. */
const message = (status = "processing") => ({
  ...g,
  status,
  updated_at: `2026-11-21T05:00:${String(seq++ % 60).padStart(2, "0")}.${seq}+00:00`,
});
const streamOf = (i: number | string, channel = g.pusher_channel) =>
  openStream(`${typeof i === "string" ? i : d.instances[i]!.base}/events?channel=${channel}`, alice);

beforeAll(async () => {
  d = await startDeployment(3);
  g = await d.client("alice", 0).generate({ prompt: "harbour at dawn", skybox_style_id: 2 });
}, 60_000);
afterAll(() => d?.close());

/** `babylon-skybox proxy` as a process, with the user and Redis flags. */
async function startCliInstance(): Promise<{ child: ChildProcess; base: string }> {
  const args = [
    "--import",
    "tsx",
    "src/cli/main.ts",
    "proxy",
    "--port",
    "0",
    "--upstream",
    d.svc.info.url,
    "--redis",
    d.redis.url,
    "--user-header",
    USER_HEADER,
    "--admin-users",
    `${ADMIN},ops`,
  ];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, SKYBOX_API_KEY: d.svc.info.apiKey, SKYBOX_API_SECRET: d.svc.info.apiSecret },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`proxy exited ${code}`)));
  });
  return { child, base: `${(JSON.parse(line) as { url: string }).url}/skybox` };
}

describe("the relay across instances", () => {
  test("a webhook landing on A reaches each stream on every instance exactly once, in order", async () => {
    const streams = await Promise.all([streamOf(0), streamOf(1), streamOf(1), streamOf(2)]);
    const sent = [message("dispatched"), message("processing"), message("processing")];
    for (const m of sent) expect((await d.deliver(m, 0)).status).toBe(200);
    // The service's own webhooks for g may arrive too; ours are told by their updated_at.
    const ours = (s: (typeof streams)[number]) =>
      s.events.map((e) => (JSON.parse(e.data) as { updated_at: string }).updated_at).filter((u) => u.startsWith("2026-11-21"));
    await waitFor(() => streams.every((s) => ours(s).length >= sent.length), 5000);
    await new Promise((r) => setTimeout(r, 200));
    for (const s of streams) expect(ours(s)).toEqual(sent.map((m) => m.updated_at));
    streams.forEach((s) => s.close());
  });

  test("the service's own webhooks to instance A reach a stream on B, each status once", async () => {
    const created = await d.client("alice", 0).generate({ prompt: "river delta at noon", skybox_style_id: 2 });
    const onB = await streamOf(1, created.pusher_channel);
    await waitFor(() => onB.events.some((e) => (JSON.parse(e.data) as Generation).status === "complete"), 20_000);
    const seen = onB.events.map((e) => JSON.parse(e.data) as Generation).map((r) => `${r.status}@${r.updated_at}`);
    expect(new Set(seen).size).toBe(seen.length);
    onB.close();
  });

  test("the replay guard is shared: a webhook accepted by A is refused by B and C", async () => {
    const body = message();
    expect((await d.deliver(body, 0)).status).toBe(200);
    expect((await d.deliver(body, 1)).status).toBe(409);
    expect((await d.deliver(body, 2)).status).toBe(409);
  });
});

describe("asset hosts across instances", () => {
  test("a file named in a record read through A is served by an instance that never saw a record", async () => {
    const done = await waitFor(
      async () => {
        const r = await d.client("alice", 0).getGeneration(g.id);
        return r.status === "complete" && r;
      },
      20_000,
      100,
    );
    const fresh = await d.addInstance();
    const res = await fetch(new URL(done.thumb_url, fresh.url), { headers: alice });
    expect([res.status, res.headers.get("content-type")]).toEqual([200, "image/jpeg"]);
  });
});

describe("the rate limit across instances", () => {
  test("N instances grant one budget per user, not N", async () => {
    const limited = await Promise.all([0, 1].map(() => d.addInstance({ rateLimit: { burst: 5, perSecond: 0.01 } }, "rate-test:")));
    const codes: number[] = [];
    for (let i = 0; i < 7; i++) codes.push((await fetch(`${limited[i % 2]!.base}/api/v1/skybox/styles`, { headers: alice })).status);
    expect(codes).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect((await fetch(`${limited[1]!.base}/api/v1/skybox/styles`, { headers: { [USER_HEADER]: "bob" } })).status).toBe(200);
  });
});

describe("an instance dying", () => {
  test("loses no event for browsers on other instances, and a watch polls on through any instance", async () => {
    const k = await startCliInstance();
    try {
      expect((await fetch(`${k.base}/api/v1/skybox/styles`)).status).toBe(401);
      const created = await d.client("alice", 1).generate({ prompt: "glacier at night", skybox_style_id: 2 });
      // The browser's watch: events through the instance that will die, polls through another.
      const tracker = createStatusTracker({
        client: createSkyboxClient({ baseUrl: d.instances[0]!.base, headers: alice, retry: 0 }),
        relay: { url: `${k.base}/events`, headers: alice },
        pollIntervalMs: 200,
      });
      const watch = tracker.watchGeneration(created.id);
      const onK = await streamOf(k.base);
      const onA = await streamOf(0);
      expect((await d.deliver(message(), 1)).status).toBe(200);
      await waitFor(() => onK.events.length === 1 && onA.events.length === 1, 5000);
      k.child.kill("SIGKILL");
      await waitFor(() => onK.ended, 5000);
      const later = [message(), message()];
      for (const m of later) expect((await d.deliver(m, 2)).status).toBe(200);
      await waitFor(() => onA.events.length === 3, 5000);
      expect(onA.events.slice(1).map((e) => (JSON.parse(e.data) as { updated_at: string }).updated_at)).toEqual(
        later.map((m) => m.updated_at),
      );
      expect((await watch.done).status).toBe("complete");
      tracker.dispose();
      onA.close();
    } finally {
      k.child.kill("SIGKILL");
    }
  });
});

describe("Redis dying", () => {
  test("every instance answers 503 with a sentence within 5 s where an owner decides; they recover by themselves", async () => {
    const stream = await streamOf(1);
    await d.redis.kill();
    await waitFor(() => stream.ended, 5000);
    for (const [i, path, init] of [
      [0, `/api/v1/imagine/requests/${g.id}`, {}],
      [1, "/api/v1/imagine/myRequests", {}],
      [
        2,
        "/api/v1/skybox",
        { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ prompt: "x", skybox_style_id: 2 }) },
      ],
      [0, `/events?channel=${g.pusher_channel}`, {}],
    ] as const) {
      const t0 = Date.now();
      const res = await d.as("alice", i)(path, init);
      expect(Date.now() - t0, path).toBeLessThan(5000);
      expect(res.status, path).toBe(503);
      expect(((await res.json()) as { error: string }).error).toMatch(/cannot reach its shared store \(Redis\)/);
      expect(res.headers.get("retry-after")).toBe("5");
    }
    expect((await d.deliver(message(), 2)).status).toBe(503);
    // An administrator's list needs no owner: it is still served.
    expect((await d.as(ADMIN, 1)("/api/v1/imagine/myRequests")).status).toBe(200);

    await d.redis.restart();
    // The restarted Redis is empty: records made before have no known owner, so admins only.
    await waitFor(async () => (await d.as("alice", 1)(`/api/v1/imagine/requests/${g.id}`)).status === 404, 10_000);
    expect((await d.as(ADMIN, 2)(`/api/v1/imagine/requests/${g.id}`)).status).toBe(200);
    const fresh = await d.client("alice", 2).generate({ prompt: "after the storm", skybox_style_id: 2 });
    expect((await d.client("alice", 0).getGeneration(fresh.id)).id).toBe(fresh.id);
    expect((await d.as("bob", 1)(`/api/v1/imagine/requests/${fresh.id}`)).status).toBe(404);
    const again = await streamOf(2, fresh.pusher_channel);
    await waitFor(
      async () =>
        (await d.deliver({ ...fresh, status: "processing", updated_at: new Date().toISOString() }, 0)).status === 200 &&
        again.events.length > 0,
      10_000,
      300,
    );
    again.close();
  });
});
