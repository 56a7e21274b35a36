/**
 * Applying without stopping the page (Chromium, SwiftShader WebGL2): while a Babylon scene
 * renders continuously, a cold apply of a Model 3 skybox without and with the sun, re-applies
 * of it from memory and from IndexedDB, a cold Model 4 and `loadSkybox` of a shipped folder
 * each run with no synchronous read-back of the GPU, no picture uploaded from an image element
 * (each is an ImageBitmap decoded off the main thread), and no long task (over 50 ms) of ours from
 * the call until `whenCached` settles plus a second. The GPU steps a software GPU may take
 * longer for are allowed by name (long-tasks.ts `isNamedGpuStep`), each measured here:
 * - preparing a shader program (no KHR_parallel_shader_compile on SwiftShader): 30 to 260 ms
 *   a task at these sizes, up to 300 ms at full size;
 * - uploading a picture as one `texImage2D` of an ImageBitmap: 20 ms for 512 x 256 as below,
 *   100 to 460 ms for a 4096 x 2048 panorama;
 * - the bake's one `getBufferSubData` after its fence has passed: 55 to 300 ms whatever the
 *   size (a round trip to the GPU process while it draws the page's frames).
 * A task fails when the steps of ours in it (src/scene/scheduling/step-timing.ts), these GPU steps taken
 * out, hold it over 50 ms; it is reported with those steps and the WebGL calls it held. Long
 * tasks with less of ours are listed, not judged: the page's own frames drawn by a software
 * GPU, garbage collection, Babylon's own work around a shader (it is not ours to slice).
 * Small sizes (panoramas at 1/16, cube 64) exercise every path in one page.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { describeTask, LONG_MS, ours, unexplained } from "../browser/pages/long-tasks.ts";
import { openSmoothScenario, type SmoothCall, type SmoothScenario } from "./smooth-scenario.ts";

let scenario: SmoothScenario;
let calls: SmoothCall[];

beforeAll(async () => {
  scenario = await openSmoothScenario(
    { local: { imageScale: 1 / 16, speed: 50 }, options: { lighting: { size: 64, quality: 16 }, backdrop: { meshQuality: "low" } } },
    true,
  );
  calls = await scenario.runAll();
}, 240_000);

afterAll(async () => {
  await scenario?.close();
});

describe("applying while the scene renders", () => {
  test("every call settles its cache writes and takes what it should from the cache", () => {
    expect(calls.map((c) => [c.name, c.run.fromCache])).toEqual([
      ["cold Model 3 apply", false],
      ["cold Model 3 apply with the sun", false],
      ["re-apply of it from memory", true],
      ["re-apply of it from IndexedDB (memory cleared)", true],
      ["cold Model 4 apply", false],
      ["loadSkybox of a shipped .hdr folder, nothing cached", false],
    ]);
  });

  test("the sun is found off the main thread: the cold apply with the sun finds one, and no step of finding it runs on the page's thread", () => {
    const sunny = calls.find((c) => c.name === "cold Model 3 apply with the sun")!;
    expect(sunny.run.sun).toBe(true);
    expect(sunny.run.steps.filter((s) => s.name === "sun-finding")).toEqual([]);
  });

  test("the sun's worker decodes the lighting's export for both: the cold apply with the sun decodes no HDR on the page's thread", () => {
    const decodes = (name: string) => calls.find((c) => c.name === name)!.run.stepTotals["hdr-decode"]?.count ?? 0;
    // Without the sun the lighting decodes its export itself, a few rows a slice.
    expect(decodes("cold Model 3 apply")).toBeGreaterThan(0);
    expect(decodes("cold Model 3 apply with the sun")).toBe(0);
  });

  test("no call reads the GPU back synchronously: every read-back waits for the GPU between tasks", () => {
    const reads = calls.flatMap((c) =>
      c.run.slowCalls
        .filter((s) => s.name === "readPixels (synchronous)")
        .map((s) => `${c.name}: ${Math.round(s.duration)} ms at ${Math.round(s.start)} ms`),
    );
    expect(reads).toEqual([]);
  });

  test("every picture reaches the GPU decoded off the main thread: no image element is uploaded, whatever the call", () => {
    const uploads = calls.flatMap((c) =>
      c.run.slowCalls.filter((s) => s.name.startsWith("tex")).map((s) => `${c.name}: ${s.name} ${Math.round(s.duration)} ms`),
    );
    expect(uploads.filter((u) => u.includes("HTMLImageElement"))).toEqual([]);
  });

  test("no step of ours holds the main thread over 50 ms in a task, from the call until whenCached plus a second", () => {
    const blocked = calls.flatMap((c) =>
      c.run.longTasks
        .filter((t) => ours(t, c.run.steps, c.run.slowCalls) > LONG_MS)
        .map(
          (t) =>
            `${c.name}: ${Math.round(ours(t, c.run.steps, c.run.slowCalls))} ms of ours in ${describeTask(t, c.run.steps, c.run.slowCalls)}`,
        ),
    );
    // The rest is listed, not judged: the page's own frames on a software GPU, garbage collection, Babylon's own work.
    const others = calls.flatMap((c) =>
      c.run.longTasks
        .filter((t) => unexplained(t, c.run.slowCalls) > LONG_MS && ours(t, c.run.steps, c.run.slowCalls) <= LONG_MS)
        .map((t) => `${c.name}: ${describeTask(t, c.run.steps, c.run.slowCalls)}`),
    );
    if (others.length) console.log(`long tasks with under ${LONG_MS} ms of ours:\n${others.join("\n")}`);
    expect(blocked, `tasks holding over ${LONG_MS} ms of our steps besides the named GPU steps`).toEqual([]);
  });

  test("the page logged no errors", () => {
    expect(scenario.pageErrors).toEqual([]);
  });
});
