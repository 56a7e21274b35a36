import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { createSkyboxClient, type Generation } from "../../src/api/index.ts";
import { createStatusTracker, type GenerationUpdate, type StatusTracker } from "../../src/status/index.ts";
import { startLocalProcess, waitFor, type LocalProcess } from "../helpers/local-service.ts";
import { fakeGeneration, startFakeUpstream, type FakeUpstream } from "./fake-upstream.ts";
import { collect, countedClient, expectForwardOnly, POLL_ROUTE, statusesOf } from "./status-fixture.ts";

let fake: FakeUpstream;
let tracker: StatusTracker;
const at = (second: number) => `2030-01-01T00:00:${String(second).padStart(2, "0")}+00:00`;
const brief = (u: GenerationUpdate) => `${u.status}:${u.queuePosition}:${u.source}`;

/** A tracker on the fake: the relay only, regular polls far apart so every poll is a catch-up. */
function relayTracker(relayUrl = `${fake.url}/events`) {
  const client = createSkyboxClient({ baseUrl: fake.url, retry: 0 });
  tracker = createStatusTracker({ client, relay: { url: relayUrl, transport: "fetch" }, pollIntervalMs: 20_000, safetyPollMs: 60_000 });
  return tracker;
}

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterEach(() => tracker?.dispose());
afterAll(() => fake?.close());

describe("relay of fabricated records", () => {
  test("duplicates, stale and foreign records never move the status backwards", async () => {
    fake.record = fakeGeneration("pending", { queue_position: 3, updated_at: at(0) });
    const watch = relayTracker().watchGeneration(fakeGeneration("pending", { queue_position: 3, updated_at: at(0) }) as Generation);
    await waitFor(() => fake.openStreams === 1 && fake.polls === 1, 5000, 10);
    expect(fake.streams.at(-1)).toEqual(["status_update_0123456789abcdef0123456789abcdef"]);
    const sequence = [
      fakeGeneration("complete", { id: 99, obfuscated_id: "f".repeat(32) }), // another generation
      fakeGeneration("pending", { queue_position: 2, updated_at: at(1) }),
      fakeGeneration("pending", { queue_position: 2, updated_at: at(1) }),
      fakeGeneration("pending", { queue_position: 1, updated_at: at(1) }),
      fakeGeneration("dispatched", { updated_at: at(2) }),
      fakeGeneration("pending", { queue_position: 3, updated_at: at(0) }),
      fakeGeneration("processing", { updated_at: at(3) }),
      fakeGeneration("dispatched", { updated_at: at(2) }),
      fakeGeneration("processing", { updated_at: at(3) }),
      "not json",
      fakeGeneration("complete", { updated_at: at(9) }),
      fakeGeneration("processing", { updated_at: at(3) }),
    ];
    // Each message split over writes, across CRLF boundaries too.
    sequence.forEach((r, i) => fake.send(r, 1 + (i % 4)));
    const updates = await collect(watch);
    expect(updates.map(brief)).toEqual([
      "pending:3:initial",
      "pending:2:relay",
      "pending:1:relay",
      "dispatched:0:relay",
      "processing:0:relay",
      "complete:0:relay",
    ]);
    expect(fake.polls).toBe(1);
    await waitFor(() => fake.openStreams === 0, 2000, 10);
  });

  test("a dropped stream: a poll at once, a catch-up poll when it is back, then the relay again", async () => {
    fake.record = fakeGeneration("dispatched", { updated_at: at(2) });
    const polls = fake.polls;
    const streams = fake.streams.length;
    const watch = relayTracker().watchGeneration(fakeGeneration("pending", { updated_at: at(0) }) as Generation);
    await waitFor(() => fake.openStreams === 1 && fake.polls === polls + 1, 5000, 10);
    fake.send(fakeGeneration("processing", { updated_at: at(3) }));
    await waitFor(() => watch.current?.status === "processing", 5000, 10);
    fake.record = fakeGeneration("processing", { updated_at: at(3) });
    fake.dropStreams();
    // Down: one poll now. Back (retry: 100 ms): one catch-up poll.
    await waitFor(() => fake.streams.length === streams + 2 && fake.openStreams === 1 && fake.polls === polls + 3, 5000, 10);
    fake.send(fakeGeneration("complete", { updated_at: at(9) }));
    const updates = await collect(watch);
    expect(updates.map(brief)).toEqual(["pending:0:initial", "dispatched:0:poll", "processing:0:relay", "complete:0:relay"]);
    expect(fake.polls).toBe(polls + 3);
  });
});

describe("relay of the local service's webhooks", () => {
  let svc: LocalProcess;
  beforeAll(async () => {
    // The relay's receiver listens on loopback.
    svc = await startLocalProcess({ speed: 10 });
  });
  afterAll(() => svc?.stop());

  test("each message twice and the one before it again: the generation still moves forward to complete", async () => {
    let previous: unknown = null;
    fake.onWebhook = (record, send) => {
      send(record);
      send(record);
      if (previous) send(previous);
      previous = record;
    };
    const creator = createSkyboxClient({ baseUrl: svc.info.url, apiKey: svc.info.apiKey });
    const { client, counter } = countedClient(svc);
    tracker = createStatusTracker({ client, relay: { url: `${fake.url}/events` }, pollIntervalMs: 20_000, safetyPollMs: 60_000 });
    const created = await creator.generate({
      prompt: "northern lights over a frozen lake",
      skybox_style_id: 2,
      webhook_url: `${fake.url}/webhook`,
    });
    const watch = tracker.watchGeneration(created);
    const updates = await collect(watch);
    expectForwardOnly(updates);
    expect(statusesOf(updates)).toEqual(["pending", "dispatched", "processing", "complete"]);
    expect(updates.at(-1)!.source).toBe("relay");
    expect(counter.count(POLL_ROUTE.generation)).toBeLessThanOrEqual(1);
  });
});
