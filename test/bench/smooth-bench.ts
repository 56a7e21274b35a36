/**
 * What applying a skybox costs a page that keeps rendering (Chromium, SwiftShader WebGL2, this
 * machine's CPU): for each call of test/scene/smooth-scenario.ts, the time to resolve, the
 * time to `whenCached`, and from the call until `whenCached` plus a second the longest task,
 * the sum and count of long tasks (over 50 ms) and the frames over 50 ms. One run of each
 * call: the long tasks are the figure, and the machine's load inflates them. Each long task is
 * listed with the steps of ours it held (src/scene/scheduling/step-timing.ts), and each call with the
 * main-thread time of each of our steps in all; `SMOOTH_WATCH=1` adds the
 * WebGL calls over 10 ms (in that list, and on their own).
 */
import { describeTask, type Blocked } from "../browser/pages/long-tasks.ts";
import type { SmoothRun } from "../browser/pages/smooth-page.ts";
import { openSmoothScenario } from "../scene/smooth-scenario.ts";

const ms = (x: number) => `${Math.round(x)} ms`;

/** Model 3 panoramas 4096 x 2048 (image scale 1/2, the dev server's), every part at its default. */
const IMAGE_SCALE = 0.5;

export async function smoothBench(): Promise<string[]> {
  const watch = process.env.SMOOTH_WATCH === "1";
  const scenario = await openSmoothScenario(
    { local: { imageScale: IMAGE_SCALE, speed: 50 }, options: { backdrop: { meshQuality: "low" } } },
    watch,
  );
  try {
    const calls = await scenario.runAll();
    const lines = [
      `while a scene renders; image scale ${IMAGE_SCALE} (Model 3 panorama ${8192 * IMAGE_SCALE} wide), lighting cube 256 quality 64, background, GLB backdrop (low); one run each`,
    ];
    for (const { name, run } of calls) {
      const longest = (tasks: Blocked[]) => ms(Math.max(0, ...tasks.map((t) => t.duration)));
      const sum = run.longTasks.reduce((n, t) => n + t.duration, 0);
      const untilResolved = run.longTasks.filter((t) => t.start < run.resolveMs);
      lines.push(
        `${name}: resolves ${ms(run.resolveMs)}, whenCached ${ms(run.cachedMs)}; long tasks ${run.longTasks.length}, longest ${longest(run.longTasks)}, sum ${ms(sum)}; frames over 50 ms ${run.slowFrames.length}` +
          `; until resolved ${untilResolved.length} long tasks, longest ${longest(untilResolved)}${run.fromCache ? " (from the cache)" : ""}`,
      );
      lines.push(`  main thread in our steps: ${stepTotals(run.stepTotals)}`);
      if (run.longTasks.length)
        lines.push(
          `  long tasks: ${[...run.longTasks]
            .sort((a, b) => b.duration - a.duration)
            .map((t) => describeTask(t, run.steps, run.slowCalls))
            .join("; ")}`,
        );
      if (watch)
        lines.push(
          `  slow WebGL calls: ${run.slowCalls
            .filter((c) => c.duration > 10)
            .map((c) => `${c.name} ${ms(c.duration)} at ${ms(c.start)}`)
            .join(", ")}`,
        );
    }
    if (scenario.pageErrors.length) lines.push(`page errors: ${scenario.pageErrors.join(" | ")}`);
    return lines;
  } finally {
    await scenario.close();
  }
}

/** Our steps' main-thread time by name, longest first ("hdr-decode 212 ms in 310"). */
function stepTotals(totals: SmoothRun["stepTotals"]): string {
  const list = Object.entries(totals)
    .sort((a, b) => b[1].ms - a[1].ms)
    .map(([name, t]) => `${name} ${ms(t.ms)} in ${t.count}`);
  return list.length ? list.join(", ") : "none";
}

// `npx tsx test/bench/smooth-bench.ts` prints the figures on their own.
if (process.argv[1] && import.meta.filename === process.argv[1]) {
  smoothBench().then(
    (lines) => console.log(lines.join("\n")),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
