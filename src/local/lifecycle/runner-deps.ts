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
}

/** Not finished yet: pending, dispatched or processing. */
export const isActive = (r: { status: RequestStatus }) => !isRequestTerminal(r.status);
