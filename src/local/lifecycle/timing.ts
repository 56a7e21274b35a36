/**
 * Realistic lifecycle delays at `--speed 1`, divided by the speed. A generation of the real
 * service takes 30 s to a minute; rendering time here comes on top of the processing
 * minimum only when it is longer.
 */
export const LIFECYCLE_MS = {
  /** Time a new generation stays pending even with a free worker. */
  pending: 2_000,
  /** From dispatched to processing. */
  dispatch: 3_000,
  /** Minimum processing time of a generation (rendering runs during it). */
  processing: 25_000,
  exportPending: 1_000,
  exportDispatch: 1_000,
  exportProcessing: 5_000,
} as const;

export type LifecycleStep = keyof typeof LIFECYCLE_MS;

export function createDelays(speed: number) {
  return (step: LifecycleStep) => LIFECYCLE_MS[step] / speed;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
