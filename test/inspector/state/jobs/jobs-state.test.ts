/**
 * JobsState with a fake client and tracker: generations and batches go through one path
 * (send, show, follow, announce what ended and what completed), a refusal is shown and learnt from its structured data.
 */
import { describe, expect, test } from "vitest";
import { Batch, checkBatchCap, Generation, SkyboxApiError, Style, type SkyboxClient } from "../../../../src/api/index.ts";
import { ConnectionState } from "../../../../src/inspector/state/connection-state.ts";
import { JobsState } from "../../../../src/inspector/state/jobs/jobs-state.ts";
import type { PlanRefusal } from "../../../../src/inspector/state/jobs/plan-lessons.ts";
import type { BatchUpdate, GenerationUpdate, StatusTracker } from "../../../../src/status/index.ts";

const m3 = Style.parse({ id: 2, name: "Realistic", model: "Model 3", model_version: "3" });
const gen = (id: number, status: Generation["status"]) => Generation.parse({ id, obfuscated_id: `o${id}`, status, title: `#${id}` });
const batch = Batch.parse({ id: 9, obfuscated_id: "b", status: "pending", quantity: 2, successfully_submitted: 2, generations: [] });

/** A watch the test ends by hand, and the update handler the state gave it. */
function fakeWatch<U>() {
  let end!: (v: unknown) => void;
  let fail!: (e: unknown) => void;
  const done = new Promise((res, rej) => ((end = res), (fail = rej)));
  return { done, stop: () => fail(new Error("stopped")), end, fail, onUpdate: null as ((u: U) => void) | null };
}

function setup(client: Partial<SkyboxClient>) {
  const watches = { generation: fakeWatch<GenerationUpdate>(), batch: fakeWatch<BatchUpdate>() };
  const tracker = {
    watchGeneration: (_: unknown, o: { onUpdate: (u: GenerationUpdate) => void }) =>
      Object.assign(watches.generation, { onUpdate: o.onUpdate }),
    watchBatch: (_: unknown, o: { onUpdate: (u: BatchUpdate) => void }) => Object.assign(watches.batch, { onUpdate: o.onUpdate }),
  } as unknown as StatusTracker;
  const connection = new ConnectionState({ baseUrl: "http://127.0.0.1:9", client: client as SkyboxClient, tracker });
  return { jobs: new JobsState(connection), watches };
}

const tick = () => new Promise((r) => setTimeout(r, 0));
const params = { prompt: "lake", skybox_style_id: 2 };

describe("JobsState", () => {
  test("a generation and a batch are sent, shown, followed, and each completed generation announced once", async () => {
    const { jobs, watches } = setup({ generate: async () => gen(4, "pending"), generateBatch: async () => batch });
    const completed: number[] = [];
    jobs.onGenerationCompleteObservable.add((g) => completed.push(g.id));
    expect(await jobs.generate(params, m3, "generate")).toMatchObject({ id: 4 });
    expect(await jobs.generateBatch({ ...params, quantity: 2 }, m3)).toBe(9);
    expect(jobs.value.jobs.map((j) => j.key)).toEqual(["batch:9", "generation:4"]);
    await tick();
    const done = gen(4, "complete");
    watches.generation.onUpdate!({
      subject: "generation",
      status: "complete",
      record: done,
      queuePosition: null,
      terminal: true,
      source: "push",
    });
    watches.generation.onUpdate!({
      subject: "generation",
      status: "complete",
      record: done,
      queuePosition: null,
      terminal: true,
      source: "poll",
    });
    const generations = [gen(10, "complete"), gen(11, "processing")];
    watches.batch.onUpdate!({
      subject: "batch",
      status: "processing",
      record: { ...batch, status: "processing" },
      generations,
      queuePosition: null,
      terminal: false,
      source: "poll",
    });
    expect(jobs.get("generation:4")).toMatchObject({ status: "complete", source: "poll" });
    expect(jobs.get("batch:9")?.batch?.generations.map((g) => g.id)).toEqual([10, 11]);
    expect(completed).toEqual([4, 10]);
    jobs.dispose();
  });

  test("a generation that ends without an image (cancelled, failed) is announced as ended once, not as complete", async () => {
    const { jobs, watches } = setup({ generate: async () => gen(4, "pending") });
    const ended: string[] = [];
    const completed: number[] = [];
    jobs.onGenerationEndedObservable.add((g) => ended.push(`${g.id} ${g.status}`));
    jobs.onGenerationCompleteObservable.add((g) => completed.push(g.id));
    await jobs.generate(params, m3, "generate");
    await tick();
    const update = (status: "processing" | "abort", source: "push" | "poll") =>
      watches.generation.onUpdate!({
        subject: "generation",
        status,
        record: gen(4, status),
        queuePosition: null,
        terminal: status === "abort",
        source,
      });
    update("processing", "push");
    update("abort", "push");
    update("abort", "poll");
    expect(ended).toEqual(["4 abort"]);
    expect(completed).toEqual([]);
    jobs.dispose();
  });

  test("a job whose watch fails says it lost track; dispose stops every watch", async () => {
    const { jobs, watches } = setup({ generate: async () => gen(4, "pending"), generateBatch: async () => batch });
    await jobs.generate(params, m3, "generate");
    await jobs.generateBatch({ ...params, quantity: 2 }, m3);
    await tick();
    watches.generation.fail(new Error("poll failed"));
    await tick();
    expect(jobs.get("generation:4")?.error).toMatchObject({ title: "Lost track of the generation", serverMessage: "poll failed" });
    jobs.dispose();
    await tick();
    await expect(watches.batch.done).rejects.toThrow("stopped");
  });

  test("a batch over the cap teaches the cap from its structured issue; a 403 on a batch greys batches out", async () => {
    const overCap = new SkyboxApiError({
      kind: "plan_forbidden",
      status: 422,
      serverMessage: "reworded refusal",
      issues: checkBatchCap(11, 33, 30),
    });
    const { jobs } = setup({ generateBatch: () => Promise.reject(overCap) });
    const refusals: PlanRefusal[] = [];
    jobs.onPlanRefusedObservable.add((r) => refusals.push(r));
    expect(await jobs.generateBatch({ ...params, quantity: 11 }, m3)).toBeNull();
    expect(jobs.value).toMatchObject({ learnedBatchCap: 30, batchBlocked: null, submitting: false, error: null });
    expect(jobs.value.batchError).toMatchObject({ title: "Batch could not start", kind: "plan_forbidden" });
    expect(refusals).toEqual([]);

    const noBatches = new SkyboxApiError({
      kind: "plan_forbidden",
      status: 403,
      serverMessage: "Batch generation is not available on your current plan.",
    });
    const second = setup({ generateBatch: () => Promise.reject(noBatches) });
    second.jobs.onPlanRefusedObservable.add((r) => refusals.push(r));
    await second.jobs.generateBatch({ ...params, quantity: 2 }, m3);
    expect(second.jobs.value).toMatchObject({ batchBlocked: noBatches.serverMessage, learnedBatchCap: null });
    expect(refusals).toEqual([{ what: "batch", reason: noBatches.serverMessage }]);
    jobs.dispose();
    second.jobs.dispose();
  });
});
