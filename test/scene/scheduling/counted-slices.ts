/** Work slices for tests of sliced work: each is spent at once (every look at the clock waits), and the waits are counted. */
import { WorkSlices } from "../../../src/scene/scheduling/work-slices.ts";

export function countedSlices(): { slices: WorkSlices; waits: () => number } {
  let waits = 0;
  const slices = new WorkSlices(async () => {
    waits++;
    return { timeRemaining: () => 0 };
  });
  return { slices, waits: () => waits };
}
