import { describe, expect, test } from "vitest";
import { Batch, Generation } from "../../../../src/api/index.ts";
import type { BatchUpdate, GenerationUpdate } from "../../../../src/status/index.ts";
import {
  applyBatchUpdate,
  applyGenerationUpdate,
  batchJob,
  cancellableIds,
  generationJob,
  isEnded,
} from "../../../../src/inspector/state/jobs/job-view.ts";

const gen = (status: string, extra: object = {}) => Generation.parse({ id: 4, obfuscated_id: "o", status, title: "Lake #4", ...extra });
const update = (status: GenerationUpdate["status"], extra: object = {}): GenerationUpdate => ({
  subject: "generation",
  status,
  record: gen(status, extra),
  queuePosition: status === "pending" ? 3 : null,
  terminal: ["complete", "error", "abort"].includes(status),
  source: "push",
});

describe("a job as the Progress view shows it", () => {
  test("each new status is a step with its time; a terminal one ends the job", () => {
    let job = generationJob(gen("pending", { queue_position: 3 }), "generate", 1000);
    expect(job).toMatchObject({
      key: "generation:4",
      title: "Lake #4",
      queuePosition: 3,
      steps: [{ status: "pending", at: 1000 }],
      endedAt: null,
    });
    job = applyGenerationUpdate(job, update("pending"), 1100);
    job = applyGenerationUpdate(job, update("processing"), 1500);
    expect(job.steps.map((s) => s.status)).toEqual(["pending", "processing"]);
    expect(cancellableIds(job)).toEqual([4]);
    job = applyGenerationUpdate(job, update("complete"), 2000);
    expect(job).toMatchObject({ status: "complete", endedAt: 2000, error: null, source: "push" });
    expect(isEnded(job)).toBe(true);
    expect(cancellableIds(job)).toEqual([]);
  });

  test("an error or a cancel is shown as one", () => {
    const failed = applyGenerationUpdate(generationJob(gen("pending"), "edit"), update("error", { error_message: "render failed" }));
    expect(failed.error).toMatchObject({ title: "Generation failed", serverMessage: "render failed" });
    expect(applyGenerationUpdate(generationJob(gen("pending"), "edit"), update("abort")).error?.title).toBe("Generation cancelled");
  });

  test("a batch keeps its counters, its generations and the lowest queue position", () => {
    const batch = Batch.parse({ id: 9, obfuscated_id: "b", status: "pending", quantity: 2, successfully_submitted: 2, generations: [] });
    let job = batchJob(batch, "2 × lake", 0);
    const generations = [gen("processing", { id: 10 }), gen("pending", { id: 11, queue_position: 2 })];
    const u: BatchUpdate = {
      subject: "batch",
      status: "processing",
      record: { ...batch, status: "processing", completed: 0 },
      generations,
      queuePosition: null,
      terminal: false,
      source: "poll",
    };
    job = applyBatchUpdate(job, u, 10);
    expect(job.batch).toMatchObject({ quantity: 2, submitted: 2, completed: 0 });
    expect(job.queuePosition).toBe(2);
    expect(cancellableIds(job)).toEqual([10, 11]);
    job = applyBatchUpdate(
      job,
      {
        ...u,
        status: "finalized",
        terminal: true,
        record: { ...batch, status: "finalized", completed: 2 },
        generations: generations.map((g) => ({ ...g, status: "complete" as const })),
      },
      20,
    );
    expect(job).toMatchObject({ status: "finalized", endedAt: 20, batch: { completed: 2 } });
    expect(cancellableIds(job)).toEqual([]);
  });
});
