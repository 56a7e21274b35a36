/**
 * The Progress view's list of jobs, newest first, and how it is kept short: pure functions
 * over the list, so trimming is testable without a pane.
 */
import { isEnded, type JobView } from "./job-view.ts";

/** Jobs kept once ended; running ones stay whatever their number. */
export const MAX_JOBS = 12;

/** The list with a new job first; old ended jobs beyond `MAX_JOBS` make room. */
export function withJob(jobs: readonly JobView[], job: JobView): JobView[] {
  return [job, ...jobs].filter((j, i) => i < MAX_JOBS || !isEnded(j));
}

/** The list with the job of `key` changed. */
export function withChange(jobs: readonly JobView[], key: string, change: (job: JobView) => JobView): JobView[] {
  return jobs.map((j) => (j.key === key ? change(j) : j));
}

/** The list without the job of `key`, when it has ended (a running job is never dropped). */
export function withoutEnded(jobs: readonly JobView[], key: string): JobView[] {
  return jobs.filter((j) => j.key !== key || !isEnded(j));
}
