import { describe, expect, test } from "vitest";
import type { Batch } from "../../src/api/index.ts";
import { compareBatches, compareRequests, type StatusClient } from "../../src/status/index.ts";
import { TrackedBatch } from "../../src/status/tracked/tracked-batch.ts";
import { fakeGeneration } from "./fake-upstream.ts";

describe("record order", () => {
  const g = (status: string, updated_at: string | null, queue_position: number | null = null) => ({ status, updated_at, queue_position });
  test("statuses move forward; equal statuses by updated_at, then queue position", () => {
    expect(compareRequests(g("pending", null), g("dispatched", null))).toBe(1);
    expect(compareRequests(g("processing", null), g("dispatched", null))).toBe(-1);
    expect(compareRequests(g("processing", null), g("error", null))).toBe(1);
    expect(compareRequests(g("pending", "2030-01-01T00:00:01+00:00"), g("pending", "2030-01-01T00:00:02.123456Z"))).toBe(1);
    expect(compareRequests(g("pending", "2030-01-01T00:00:02Z"), g("pending", "2030-01-01T00:00:01Z", 0))).toBe(-1);
    expect(compareRequests(g("pending", "x", 3), g("pending", "x", 2))).toBe(1);
    expect(compareRequests(g("pending", "x", 2), g("pending", "x", 2))).toBe(0);
    expect(compareRequests(g("pending", null, 2), g("pending", null, null))).toBe(0);
  });
  test("a batch is ordered by finished generations before its status", () => {
    const b = (status: Batch["status"], completed: number) =>
      ({
        id: 1,
        obfuscated_id: "b",
        quantity: 2,
        status,
        completed,
        errored: 0,
        aborted: 0,
        successfully_submitted: 2,
        submission_errors: [],
      }) as Batch;
    expect(compareBatches(b("processing", 0), b("dispatched", 1))).toBe(1);
    expect(compareBatches(b("dispatched", 1), b("processing", 0))).toBe(-1);
    expect(compareBatches(b("processing", 1), b("finalized", 1))).toBe(1);
  });
});

describe("batch settling", () => {
  const gen = (id: number, status: string) =>
    fakeGeneration(status, { id, obfuscated_id: `${id}`.padStart(32, "0"), pusher_channel: `status_update_${id}` });
  const batch = (status: string, completed: number, generations?: unknown[]) => ({
    id: 7,
    obfuscated_id: "b7",
    status,
    quantity: 2,
    completed,
    errored: 0,
    aborted: 0,
    successfully_submitted: 2,
    pusher_channel: "batch_status_update_b7",
    pusher_event: "status_update",
    ...(generations ? { generations } : {}),
  });

  test("a batch that ends before its generations' ends were seen needs one poll, then is terminal", async () => {
    let polled = 0;
    const client = {
      getBatch: async () => (polled++, batch("finalized", 2, [gen(1, "complete"), gen(2, "complete")])),
    } as unknown as StatusClient;
    const tracked = new TrackedBatch(client, 7, batch("pending", 0, [gen(1, "pending"), gen(2, "pending")]) as unknown as Batch);
    expect(tracked.channels().map((c) => c.channel)).toEqual(["batch_status_update_b7", "status_update_1", "status_update_2"]);
    expect(tracked.merge(gen(1, "complete"))).toBe(true);
    expect(tracked.merge(gen(3, "complete"))).toBe(false); // not of this batch
    expect(tracked.merge(JSON.stringify(batch("finalized", 2)))).toBe(true);
    expect(tracked.terminal).toBe(false);
    expect(tracked.needsPoll).toBe(true);
    await tracked.poll(new AbortController().signal);
    expect(polled).toBe(1);
    expect(tracked.terminal).toBe(true);
    expect(tracked.update("poll").generations.map((g) => g.status)).toEqual(["complete", "complete"]);
  });
});
