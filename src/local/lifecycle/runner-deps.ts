import { isRequestTerminal } from "../../api/protocol/statuses.ts";
import type { RequestStatus } from "../../api/schemas/generation.ts";
import type { StatusEvents } from "../events.ts";
import type { Imagery } from "../imagery/imagery.ts";
import type { RecordStore } from "../store/record-store.ts";
import type { LifecycleStep } from "./timing.ts";

/** What the generation and export runners both work with. */
export interface RunnerDeps {
  store: RecordStore;
  events: StatusEvents;
  imagery: Imagery;
  dataDir: string;
  imageScale: number;
  delay: (step: LifecycleStep) => number;
  /** Jobs run at once. */
  concurrency: number;
  log: (line: string) => void;
  /** Logs at `--log-level debug` only. */
  debug: (line: string) => void;
}

/**
 * Ends a job whose run threw instead of ending it (a journal write that failed, say): in
 * `error` with a sentence, logged with its id. Never throws: it is the queue's last word.
 */
export function endFailedJob(d: RunnerDeps, label: string, error: unknown, end: (sentence: string) => void): void {
  const message = error instanceof Error ? error.message : String(error);
  d.log(`${label} failed: ${message}`);
  try {
    end(`Processing failed: ${message}`);
  } catch (again) {
    d.log(`${label} could not be ended: ${again instanceof Error ? again.message : String(again)}`);
  }
}

/** Not finished yet: pending, dispatched or processing. */
export const isActive = (r: { status: RequestStatus }) => !isRequestTerminal(r.status);
