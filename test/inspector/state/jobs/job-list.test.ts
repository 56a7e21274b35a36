import { describe, expect, test } from "vitest";
import { Generation } from "../../../../src/api/index.ts";
import { MAX_JOBS, withChange, withJob, withoutEnded } from "../../../../src/inspector/state/jobs/job-list.ts";
import { generationJob, type JobView } from "../../../../src/inspector/state/jobs/job-view.ts";

const job = (id: number, ended: boolean): JobView => ({
  ...generationJob(Generation.parse({ id, obfuscated_id: `o${id}`, status: "pending" }), "generate", 0),
  endedAt: ended ? 1 : null,
});

describe("the Progress view's list", () => {
  test("new jobs come first; old ended jobs make room, running ones stay whatever their number", () => {
    let jobs: JobView[] = [job(0, false)];
    for (let id = 1; id <= MAX_JOBS + 3; id++) jobs = withJob(jobs, job(id, true));
    expect(jobs[0]!.id).toBe(MAX_JOBS + 3);
    expect(jobs).toHaveLength(MAX_JOBS + 1);
    expect(jobs.at(-1)!.id).toBe(0);
  });

  test("a change reaches its job only; only an ended job is dismissed", () => {
    const jobs = [job(1, false), job(2, true)];
    expect(withChange(jobs, "generation:1", (j) => ({ ...j, status: "processing" })).map((j) => j.status)).toEqual([
      "processing",
      "pending",
    ]);
    expect(withoutEnded(jobs, "generation:1")).toEqual(jobs);
    expect(withoutEnded(jobs, "generation:2").map((j) => j.id)).toEqual([1]);
  });
});
