import { afterAll, expect, test } from "vitest";
import { createSkyboxClient, type Generation } from "../../src/api/index.ts";
import { createStatusTracker } from "../../src/status/index.ts";
import { fakeGeneration, startFakeUpstream } from "./fake-upstream.ts";

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

test("refresh: every watch polls at once instead of after its backoff (the connection came back)", async () => {
  const upstream = await startFakeUpstream();
  cleanups.push(() => upstream.close());
  upstream.record = fakeGeneration("pending");
  const client = createSkyboxClient({ baseUrl: upstream.url });
  // A first poll, then the next one only after a minute: nothing but refresh polls sooner.
  const tracker = createStatusTracker({ client, pollIntervalMs: 60_000, maxPollIntervalMs: 60_000 });
  cleanups.push(() => tracker.dispose());
  const watch = tracker.watchGeneration((upstream.record as Generation).id);
  // The first poll has answered (pending): the next is a minute away.
  await expect.poll(() => watch.updates.length, { timeout: 5000 }).toBe(1);
  expect(watch.polls).toBe(1);
  upstream.record = fakeGeneration("complete");
  const t0 = Date.now();
  tracker.refresh();
  const record = await watch.done;
  expect(record.status).toBe("complete");
  expect(watch.polls).toBe(2);
  expect(Date.now() - t0).toBeLessThan(5000);
});
