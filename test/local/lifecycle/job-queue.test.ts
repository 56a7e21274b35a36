import { expect, test } from "vitest";
import { JobQueue } from "../../../src/local/lifecycle/job-queue.ts";

test("a job that throws is handed to onFailure (never an unhandled rejection), and the queue goes on", async () => {
  const ran: number[] = [];
  const failed: [number, string][] = [];
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const queue = new JobQueue<number>({
    concurrency: 1,
    run: async (id) => {
      ran.push(id);
      if (id === 1) throw new Error("the journal could not be written");
      if (id === 3) done();
    },
    onFailure: (id, error) => failed.push([id, (error as Error).message]),
  });
  [1, 2, 3].forEach((id) => queue.enqueue(id));
  await finished;
  expect(ran).toEqual([1, 2, 3]);
  expect(failed).toEqual([[1, "the journal could not be written"]]);
});
