/**
 * The sun found off the main thread (Chromium): the library's sun worker answers what `findSun`
 * answers on the page's thread for the same bytes, ends once it has answered, is dropped with
 * the apply that aborts while it works (no worker left running, no sun light arriving late),
 * and a page without Web Workers, or whose worker cannot load, finds the sun on its main thread.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Generation } from "../../../src/api/index.ts";
import { complete, generate, openSceneFixture, type SceneFixture } from "../scene-fixture.ts";

let f: SceneFixture;
let desert: Generation;
/** The desert's 1K `.hdr` export (the sun's default), as the page fetches it. */
let hdrUrl: string;

beforeAll(async () => {
  f = await openSceneFixture();
  desert = await complete(f.client, (await generate(f.client, "clear desert at noon", 3, 2)).id);
  let e = await f.client.requestExport({ skybox_id: desert.obfuscated_id, type_id: 4, resolution_id: 1, hdri_mode_id: 2 }, { model: 3 });
  for (let i = 0; e.status !== "complete" && i < 300; i++) {
    await new Promise((r) => setTimeout(r, 100));
    e = await f.client.getExport(e.id);
  }
  hdrUrl = new URL(e.file_url, f.pages.url).href;
}, 120_000);

afterAll(async () => {
  await f?.close();
});

describe("finding the sun in a worker", () => {
  test("the worker finds the same sun as findSun on the main thread, and ends once it has answered", async () => {
    const both = await f.page.evaluate((url) => window.skyboxTest.findSunBothWays(url), hdrUrl);
    expect(both.mainThread.sun).not.toBeNull();
    expect(both.offThread).toEqual(both.mainThread);
    expect({ made: both.workersMade, live: both.liveWorkers, mainThreadSteps: both.steps }).toEqual({
      made: 1,
      live: 0,
      mainThreadSteps: 0,
    });
  });

  test("an apply aborted while the worker holds its job rejects, ends the worker and gets no sun light afterwards", async () => {
    const result = await f.page.evaluate(
      (id) =>
        window.skyboxTest.applyAbortedInSunWorker(id, {
          backdrop: false,
          lighting: { size: 64, quality: 16 },
          sun: { shadowMapSize: 512 },
        }),
      desert.id,
    );
    expect(result.error).toEqual({ name: "Error", message: "stopped by the test" });
    expect({ made: result.workersMade, live: result.liveWorkers }).toEqual({ made: 1, live: 0 });
    expect(result.after).toEqual(result.before);
  });

  test("a page without Web Workers finds the sun on its main thread", async () => {
    const alone = await f.page.evaluate((url) => window.skyboxTest.findSunWithoutWorkers(url), hdrUrl);
    const both = await f.page.evaluate((url) => window.skyboxTest.findSunBothWays(url), hdrUrl);
    expect(alone.workersMade).toBe(0);
    expect(alone.steps).toBeGreaterThan(0);
    expect(alone.finding).toEqual(both.mainThread);
  });

  test("the page logged no errors", () => {
    expect(f.pageErrors).toEqual([]);
  });

  // Last: once a worker failed to start, the page keeps the main thread's way.
  test("where the worker's module cannot load (a bundler that did not emit it, a refusing policy), the sun is found on the main thread", async () => {
    await f.page.route(/sun-worker[^/]*\.js$/, (route) => route.fulfill({ status: 404, body: "" }));
    const both = await f.page.evaluate((url) => window.skyboxTest.findSunBothWays(url), hdrUrl);
    expect({ made: both.workersMade, live: both.liveWorkers }).toEqual({ made: 1, live: 0 });
    expect(both.steps).toBeGreaterThan(0);
    expect(both.offThread).toEqual(both.mainThread);
  });
});
