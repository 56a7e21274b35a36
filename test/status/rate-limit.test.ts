import { afterAll, expect, test } from "vitest";
import { createSkyboxClient, type Generation } from "../../src/api/index.ts";
import { createStatusTracker, type StatusTracker } from "../../src/status/index.ts";
import { fakeGeneration, startFakeUpstream, type FakeUpstream } from "./fake-upstream.ts";
import { collect, expectForwardOnly } from "./status-fixture.ts";

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

/** A fake API whose record moves one status on per answered poll, behind a storm of 429s. */
async function stormyUpstream(limited: number): Promise<FakeUpstream> {
  const fake = await startFakeUpstream();
  cleanups.push(() => fake.close());
  const steps = ["processing", "complete"];
  fake.record = fakeGeneration("pending");
  fake.onPoll = () => (fake.record = fakeGeneration(steps.shift() ?? "complete"));
  fake.storm(limited, 1);
  return fake;
}

for (const retry of [0, 2]) {
  test.concurrent(`a 429 storm slows polling down instead of failing (client retries: ${retry})`, async () => {
    const upstream = await stormyUpstream(3);
    const client = createSkyboxClient({ baseUrl: upstream.url, retry });
    const tracker: StatusTracker = createStatusTracker({ client, pollIntervalMs: 50, maxPollIntervalMs: 200 });
    cleanups.push(() => tracker.dispose());
    const watch = tracker.watchGeneration(fakeGeneration("pending") as Generation);
    const updates = await collect(watch);
    expectForwardOnly(updates);
    expect(updates.map((u) => u.status)).toEqual(["pending", "processing", "complete"]);
    expect(upstream.limited).toBe(3);
    // Every request after a 429 waited its Retry-After; none was wasted.
    expect(upstream.early).toBe(0);
    expect(upstream.polls).toBeLessThanOrEqual(3 + 3);
  });
}
