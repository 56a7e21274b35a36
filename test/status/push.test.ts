import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSkyboxClient, type Generation, type SkyboxClient } from "../../src/api/index.ts";
import { compareBatches, createStatusTracker, type StatusTracker } from "../../src/status/index.ts";
import { startLocalProcess, waitFor, type LocalProcess } from "../helpers/local-service.ts";
import { startTcpForwarder, type TcpForwarder } from "./tcp-forwarder.ts";
import {
  collect,
  countedClient,
  expectForwardOnly,
  generationStatuses,
  POLL_ROUTE,
  statusesOf,
  type countingFetch,
} from "./status-fixture.ts";

// Push alone: with a live subscription the only poll is the catch-up one as it comes up
// (the safety poll is set far beyond the test's length).
let svc: LocalProcess;
let creator: SkyboxClient;
let tracker: StatusTracker;
let counter: ReturnType<typeof countingFetch>;
let skybox: Generation;
let forwarder: TcpForwarder;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  svc = await startLocalProcess({ speed: 10 });
  creator = createSkyboxClient({ baseUrl: svc.info.url, apiKey: svc.info.apiKey });
  const counted = countedClient(svc);
  counter = counted.counter;
  // Through a forwarder only to count the push connections.
  forwarder = await startTcpForwarder(svc.info.pusher.wsPort);
  const push = { ...svc.info.pusher, wsPort: forwarder.port };
  tracker = createStatusTracker({ client: counted.client, push, safetyPollMs: 120_000, pollIntervalMs: 200 });
  await tracker.push!.ready();
});
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
  tracker?.dispose();
  await forwarder?.close();
  await svc?.stop();
});

describe("push alone", () => {
  test("a generation: every status in order, one catch-up poll", async () => {
    const created = await creator.generate({ prompt: "pine forest under a violet sky", skybox_style_id: 2 });
    const watch = tracker.watchGeneration(created);
    const updates = await collect(watch);
    expect(statusesOf(updates)).toEqual(["pending", "dispatched", "processing", "complete"]);
    expectForwardOnly(updates);
    expect(updates[0]!.source).toBe("initial");
    expect(updates.filter((u) => u.source === "push").length).toBeGreaterThanOrEqual(2);
    skybox = await watch.done;
    expect(skybox.status).toBe("complete");
    expect(skybox.file_url).toMatch(/^http/);
    expect(updates.at(-1)!.terminal).toBe(true);
    expect(counter.count(POLL_ROUTE.generation)).toBeLessThanOrEqual(1);
    expect(watch.polls).toBeLessThanOrEqual(1);
  });

  test("an export (HDRI, 1K): every status in order, one catch-up poll", async () => {
    const created = await creator.requestExport({ skybox_id: skybox.obfuscated_id, type_id: 4, resolution_id: 1 });
    expect(created.status).toBe("pending");
    const seen: string[] = [];
    const watch = tracker.watchExport(created, { onUpdate: (u) => seen.push(u.status) });
    const record = await watch.done;
    expect(record.status).toBe("complete");
    expect(record.file_url).toMatch(/\.hdr$/);
    expect(statusesOf(watch.updates)).toEqual(["pending", "dispatched", "processing", "complete"]);
    expect(seen).toEqual(watch.updates.map((u) => u.status));
    expect(counter.count(POLL_ROUTE.export)).toBeLessThanOrEqual(1);
  });

  test("a batch of 2: its statuses and counters, and each generation's statuses", async () => {
    const created = await creator.generateBatch({ prompt: "desert canyon at noon", skybox_style_id: 2, quantity: 2 });
    const watch = tracker.watchBatch(created);
    const updates = await collect(watch);
    const last = updates.at(-1)!;
    expect(last.status).toBe("finalized");
    expect(last.record).toMatchObject({ completed: 2, errored: 0, aborted: 0 });
    expect(updates[0]!.status).toBe("pending");
    for (let i = 1; i < updates.length; i++) expect(compareBatches(updates[i - 1]!.record, updates[i]!.record)).toBeGreaterThanOrEqual(0);
    const perGeneration = generationStatuses(updates);
    expect([...perGeneration.keys()].sort()).toEqual(created.generations!.map((g) => g.id).sort());
    for (const statuses of perGeneration.values()) expect(statuses).toEqual(["pending", "dispatched", "processing", "complete"]);
    expect(last.generations.every((g) => g.file_url.startsWith("http"))).toBe(true);
    expect(counter.count(POLL_ROUTE.batch)).toBeLessThanOrEqual(1);
    expect(counter.count(POLL_ROUTE.generation)).toBeLessThanOrEqual(1); // only the first test's
  });

  test("watches of one tracker share one connection, and a watch by id fetches its record once", async () => {
    const created = await creator.generate({ prompt: "harbour at night", skybox_style_id: 2 });
    const before = counter.count(POLL_ROUTE.generation);
    const a = tracker.watchGeneration(created.id);
    const b = tracker.watchGeneration(created);
    const [ra, rb] = await Promise.all([a.done, b.done]);
    expect(ra.status).toBe("complete");
    expect(rb.id).toBe(ra.id);
    // a: its first fetch, then a catch-up; b: a catch-up. No regular polls.
    expect(counter.count(POLL_ROUTE.generation) - before).toBeLessThanOrEqual(3);
    expect(tracker.activeWatches).toBe(0);
    expect(forwarder.accepted).toBe(1);
  });
});

describe("a push connection cut mid-generation (through a TCP forwarder)", () => {
  /** A tracker of its own, its push connection through a fresh forwarder. */
  async function trackerBehindForwarder() {
    const forwarder = await startTcpForwarder(svc.info.pusher.wsPort);
    const { client } = countedClient(svc);
    const push = { ...svc.info.pusher, wsPort: forwarder.port };
    const own = createStatusTracker({ client, push, pollIntervalMs: 200, maxPollIntervalMs: 800, safetyPollMs: 120_000 });
    await own.push!.ready();
    cleanups.push(async () => {
      own.dispose();
      await forwarder.close();
    });
    return { tracker: own, forwarder };
  }

  /** Watches a new generation and cuts the push connection once it is processing. */
  async function cutWhileProcessing(refuse: boolean) {
    const { tracker: own, forwarder } = await trackerBehindForwarder();
    const created = await creator.generate({ prompt: "stormy coast with a lighthouse", skybox_style_id: 2 });
    let cutAt = -1;
    const watch = own.watchGeneration(created, {
      onUpdate(u) {
        if (u.status !== "processing" || cutAt >= 0) return;
        cutAt = watch.updates.length;
        forwarder.cut({ refuse });
      },
    });
    const updates = await collect(watch);
    expect(cutAt).toBeGreaterThan(0);
    expectForwardOnly(updates);
    expect(statusesOf(updates).at(-1)).toBe("complete");
    return { tracker: own, forwarder, watch, afterCut: updates.slice(cutAt) };
  }

  test.concurrent("cut for good: polling takes over at once and sees the end", async () => {
    const { tracker: own, watch, afterCut } = await cutWhileProcessing(true);
    expect(afterCut.at(-1)).toMatchObject({ status: "complete", source: "poll" });
    expect(own.push!.state).not.toBe("connected");
    // The catch-up as push came up, then polls from the cut on.
    expect(watch.polls).toBeGreaterThanOrEqual(2);
    expect((await watch.done).file_url).toMatch(/^http/);
  });

  test.concurrent("cut and back: one catch-up poll on resubscription, then push again", async () => {
    const { tracker: own, forwarder, watch, afterCut } = await cutWhileProcessing(false);
    await waitFor(() => own.push!.state === "connected", 10_000);
    expect(forwarder.accepted).toBeGreaterThanOrEqual(2);
    // Catch-up at start, a poll at the cut, a catch-up on resubscription.
    expect(watch.polls).toBeGreaterThanOrEqual(3);
    expect(afterCut.at(-1)).toMatchObject({ status: "complete", source: "push" });
  });
});

describe("a push connection moved to other settings", () => {
  test("retarget: from a port that is gone to the live one, the watch is pushed again and its channel comes up there", async () => {
    const forwarder = await startTcpForwarder(svc.info.pusher.wsPort);
    const { client } = countedClient(svc);
    const own = createStatusTracker({
      client,
      push: { ...svc.info.pusher, wsPort: forwarder.port },
      pollIntervalMs: 200,
      maxPollIntervalMs: 800,
      safetyPollMs: 120_000,
    });
    cleanups.push(async () => own.dispose());
    await own.push!.ready();
    // The server behind the old settings is gone for good (a restarted local service listens elsewhere).
    await forwarder.close();
    const states: string[] = [];
    own.push!.watchState((s) => states.push(s));
    const created = await creator.generate({ prompt: "glacier at midnight", skybox_style_id: 2 });
    const watch = own.watchGeneration(created);
    own.push!.retarget({ ...svc.info.pusher });
    expect(own.push!.settings.wsPort).toBe(svc.info.pusher.wsPort);
    const updates = await collect(watch);
    expectForwardOnly(updates);
    expect(statusesOf(updates).at(-1)).toBe("complete");
    expect(updates.some((u) => u.source === "push")).toBe(true);
    expect(states.at(-1)).toBe("connected");
  });
});
