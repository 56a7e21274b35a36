/**
 * The pane's half of a monkey run: a Chromium page (test/browser/pages/scene.html) that
 * applies the users' finished skyboxes while they cancel, delete and export them, with
 * random parts and options (first one of its own, which no user deletes, so that every run
 * applies at least one whatever the users did), aborts some applies midway, replaces, hides, rotates and
 * disposes. An apply may fail (its skybox was deleted meanwhile): then it must fail with a
 * sentence and leave the scene as it was. At the end, once everything is disposed, the
 * scene holds what it held before, and the page logged no error.
 */
import type { Page } from "playwright-core";
import { type Ledger, TERMINAL } from "./ledger.ts";
import type { Api, Random } from "./monkey-user.ts";

/** Small cubes and few samples: software WebGL. */
const LIGHTING = { size: 64, quality: 32 };

export function pageApplier(page: Page, pageErrors: string[], actions: Map<string, number>, api: Api) {
  return async (ledger: Ledger, random: Random, deadline: number): Promise<string[]> => {
    const problems: string[] = [];
    // The engine's memory cache keeps environments for a re-apply on purpose: emptied around the counts.
    const scene = () =>
      page.evaluate(
        () => (window.skyboxTest.clearMemory(), { counts: window.skyboxTest.counts(), textures: window.skyboxTest.engineTextures() }),
      );
    const { counts: before, textures: texturesBefore } = await scene();
    const count = (name: string) => actions.set(name, (actions.get(name) ?? 0) + 1);
    const own = await ownSkybox(api, ledger, deadline);
    if (typeof own === "string") problems.push(own);
    else {
      count("apply");
      const result = await page.evaluate(([id, o]) => window.skyboxTest.applyFailing(id, o, -1), [own, { lighting: LIGHTING }] as const);
      if (result.error) problems.push(`the page's own skybox ${own} failed to apply: ${result.error.message}`);
    }
    while (Date.now() < deadline) {
      // The users' skyboxes, which they may delete at any moment.
      const done = [...ledger.generations.values()].filter((g) => g.status === "complete" && !g.deleted && g.user !== "page");
      if (!done.length || random.chance(0.3)) {
        // The users poll their own jobs now and then: the page asks how the others are doing.
        const live = [...ledger.generations.values()].filter((g) => !g.deleted && g.status !== "complete");
        if (live.length) {
          const g = random.pick(live);
          const { status, json } = await api("GET", `/imagine/requests/${g.id}`);
          if (status === 200) ledger.generation(json.request, g.user);
        }
        if (!done.length) await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      const g = random.pick(done);
      const roll = random(100);
      if (roll < 70) {
        const options = {
          cache: random.chance(0.5),
          lighting: random.chance(0.8) ? LIGHTING : false,
          background: random.chance(0.7),
          backdrop: random.chance(0.4) ? { meshQuality: "low" as const } : false,
          sun: random.chance(0.5),
        };
        const abortAfter = random.chance(0.25) ? random(1500) : -1;
        count(abortAfter >= 0 ? "apply, aborted" : "apply");
        const result = await page.evaluate(([id, o, ms]) => window.skyboxTest.applyFailing(id, o, ms), [
          g.id,
          options,
          abortAfter,
        ] as const);
        if (result.error && !/\w+ \w+/.test(result.error.message))
          problems.push(`apply of ${g.id} failed without a sentence: ${JSON.stringify(result.error)}`);
        if (result.error && !result.environmentKept)
          problems.push(`a failed apply of ${g.id} changed the scene's environment: ${result.error.message}`);
      } else if (roll < 80) {
        count("dispose");
        await page.evaluate(() => window.skyboxTest.disposeCurrent());
      } else if (roll < 90) {
        count("visibility");
        const parts = {
          lighting: random.chance(0.5),
          background: random.chance(0.5),
          backdrop: random.chance(0.5),
          sun: random.chance(0.5),
        };
        await page.evaluate((p) => window.skyboxTest.setVisible(p), parts);
      } else {
        count("rotate");
        await page.evaluate((r) => window.skyboxTest.setRotation(r), random(628) / 100);
      }
    }
    await page.evaluate(() => window.skyboxTest.disposeCurrent());
    // Bakes into the cache go on after their skybox is gone, and end by themselves.
    await page.evaluate(() => window.skyboxTest.whenCached());
    // Babylon's Observable.remove() takes effect on the next task.
    await new Promise((r) => setTimeout(r, 50));
    const { counts: after, textures } = await scene();
    // GPU textures: none that was not there before may be left (the scene's own BRDF lookup
    // texture aside: Babylon makes it at the first PBR render and keeps it with the scene).
    const existed = new Set(texturesBefore.map((t) => t.id));
    const left = textures.filter((t) => !existed.has(t.id) && !t.url.startsWith("data:EnvironmentBRDFTexture"));
    if (left.length) problems.push(`GPU textures left after every skybox was disposed: ${JSON.stringify(left)}`);
    const { engineTextures: _a, ...sceneBefore } = before;
    const { engineTextures: _b, ...sceneAfter } = after;
    if (JSON.stringify(sceneAfter) !== JSON.stringify(sceneBefore))
      problems.push(`the scene after every skybox was disposed is not what it was before: ${JSON.stringify({ sceneBefore, sceneAfter })}`);
    // Chromium logs every 404 it fetched; the apply of a skybox deleted meanwhile gets one, and must say so in a sentence (checked above).
    problems.push(
      ...pageErrors.filter((e) => !/Failed to load resource: the server responded with a status of 404/.test(e)).map((e) => `page: ${e}`),
    );
    return problems;
  };
}

/**
 * A skybox of the page's own, finished: generated again when a user's "cancel all" caught
 * it (they share the account). A sentence instead when the service refused or lost it, or
 * none could finish before `deadline`.
 */
async function ownSkybox(api: Api, ledger: Ledger, deadline: number): Promise<number | string> {
  const { json: styles } = await api("GET", "/skybox/styles");
  const style = (styles as unknown as { id: number }[])[0]!.id;
  while (Date.now() < deadline) {
    const posted = await api("POST", "/skybox", { prompt: "a lake at sunset", skybox_style_id: style });
    if (posted.status !== 200) return `the page's generation was refused: ${posted.status} ${JSON.stringify(posted.json).slice(0, 200)}`;
    const id = posted.json.id as number;
    ledger.generation(posted.json, "page");
    while (!TERMINAL.has(ledger.generations.get(id)!.status) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      const read = await api("GET", `/imagine/requests/${id}`);
      if (read.status !== 200) return `the page's generation ${id} answers ${read.status}`;
      ledger.generation(read.json.request, "page");
    }
    if (ledger.generations.get(id)!.status === "complete") return id;
  }
  return "the page's own skybox did not finish in the run's time";
}
