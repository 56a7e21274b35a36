import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSkyboxClient, isSkyboxApiError, type SkyboxClient } from "../../src/api/index.ts";
import { createStatusTracker, type StatusTracker } from "../../src/status/index.ts";
import { startLocalProcess, type LocalProcess } from "../helpers/local-service.ts";
import {
  collect,
  countedClient,
  expectForwardOnly,
  generationStatuses,
  POLL_ROUTE,
  statusesOf,
  type countingFetch,
} from "./status-fixture.ts";

// Polling alone (push: null), with short intervals so the test sees most statuses.
let svc: LocalProcess;
let creator: SkyboxClient;
let tracker: StatusTracker;
let counter: ReturnType<typeof countingFetch>;

beforeAll(async () => {
  svc = await startLocalProcess({ speed: 20 });
  creator = createSkyboxClient({ baseUrl: svc.info.url, apiKey: svc.info.apiKey });
  const counted = countedClient(svc);
  counter = counted.counter;
  tracker = createStatusTracker({ client: counted.client, push: null, pollIntervalMs: 50, maxPollIntervalMs: 400 });
});
afterAll(async () => {
  tracker?.dispose();
  await svc?.stop();
});

describe("polling alone", () => {
  test("a generation by record: forward only to complete, polls backing off", async () => {
    const created = await creator.generate({ prompt: "misty rice terraces at dawn", skybox_style_id: 2 });
    const watch = tracker.watchGeneration(created);
    const updates = await collect(watch);
    expectForwardOnly(updates);
    const statuses = statusesOf(updates);
    expect(statuses[0]).toBe("pending");
    expect(statuses).toContain("processing");
    expect(statuses.at(-1)).toBe("complete");
    expect(updates.slice(1).every((u) => u.source === "poll")).toBe(true);
    // ~1.5 s at 50 ms would be ~30 polls without backoff; the 400 ms cap keeps it near 8.
    expect(watch.polls).toBe(counter.count(POLL_ROUTE.generation));
    expect(watch.polls).toBeLessThan(20);
  });

  test("a generation by numeric id and by obfuscated id", async () => {
    const created = await creator.generate({ prompt: "snowy pass under stars", skybox_style_id: 2 });
    const [byId, byHash] = await Promise.all([
      tracker.watchGeneration(created.id).done,
      tracker.watchGeneration(created.obfuscated_id).done,
    ]);
    expect(byId).toMatchObject({ id: created.id, status: "complete" });
    expect(byHash).toMatchObject({ id: created.id, status: "complete" });
  });

  test("an export and a batch of 2", async () => {
    const skybox = (await creator.history({ status: "complete", limit: 1 })).data[0]!;
    const exp = tracker.watchExport((await creator.requestExport({ skybox_id: skybox.obfuscated_id, type_id: 4, resolution_id: 1 })).id);
    const exported = await exp.done;
    expect(exported.status).toBe("complete");
    expect(exported.file_url).toMatch(/\.hdr$/);
    expectForwardOnly(exp.updates);

    const batch = await creator.generateBatch({ prompt: "volcanic island at dusk", skybox_style_id: 2, quantity: 2 });
    const watch = tracker.watchBatch(batch.id);
    const updates = await collect(watch);
    expect(updates.at(-1)).toMatchObject({ status: "finalized", record: { completed: 2 } });
    const perGeneration = generationStatuses(updates);
    expect(perGeneration.size).toBe(2);
    for (const statuses of perGeneration.values()) expect(statuses.at(-1)).toBe("complete");
    // One request a poll covers the batch and its generations.
    expect(counter.count(POLL_ROUTE.generation)).toBeGreaterThan(0);
    expect(watch.polls).toBe(counter.count(POLL_ROUTE.batch));
  });

  test("a generation that does not exist: done rejects with not_found", async () => {
    const watch = tracker.watchGeneration(987_654_321);
    const error = await watch.done.then(
      () => null,
      (e: unknown) => e,
    );
    expect(isSkyboxApiError(error) && error.kind).toBe("not_found");
    await expect(collect(watch)).rejects.toThrow();
  });

  test("an aborted signal stops the watch: done rejects with kind aborted", async () => {
    const created = await creator.generate({ prompt: "quiet lagoon", skybox_style_id: 2 });
    const controller = new AbortController();
    const watch = tracker.watchGeneration(created, { signal: controller.signal });
    const first = await watch[Symbol.asyncIterator]().next();
    expect(first.value?.status).toBe("pending");
    controller.abort();
    const error = await watch.done.then(
      () => null,
      (e: unknown) => e,
    );
    expect(isSkyboxApiError(error) && error.kind).toBe("aborted");
    const polls = watch.polls;
    await new Promise((r) => setTimeout(r, 300));
    expect(watch.polls).toBe(polls);
  });
});
