/**
 * A monkey run with the pane's half: users act on the API through the Vite plugin (vite
 * preview of the built test pages, with its local service in this process) while a Chromium
 * page applies their finished skyboxes at random (page-applier.ts). MONKEY_SEED replays it.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { openSceneFixture, type SceneFixture } from "../scene/scene-fixture.ts";
import { runMonkey } from "./monkey-run.ts";
import { apiAt, type MonkeyTarget } from "./monkey-targets.ts";
import { pageApplier } from "./page-applier.ts";

const SEED = Number(process.env.MONKEY_SEED ?? Date.now() % 1_000_000);
let fixture: SceneFixture;

beforeAll(async () => {
  // Monkeys poll every few milliseconds from the page's address, far past the per-client limit.
  fixture = await openSceneFixture({}, { proxy: { rateLimit: false }, local: { rateLimit: 1_000_000 } });
}, 180_000);
afterAll(() => fixture?.close());

test(`monkey with a page applying the users' skyboxes (MONKEY_SEED=${SEED})`, async () => {
  const { pages, page, pageErrors } = fixture;
  const target: MonkeyTarget = {
    name: "the Vite plugin (preview) with a page applying",
    api: () => apiAt(`${pages.url}/skybox/api/v1`, {}),
    local: { dataDir: pages.dataDir! },
    logs: () => [...pages.localLog],
    dead: () => [],
    close: async () => {},
  };
  const applies = new Map<string, number>();
  const report = await runMonkey(target, {
    seed: SEED,
    users: 2,
    actions: 40,
    durationMs: 25_000,
    alongside: pageApplier(page, pageErrors, applies, target.api("page")),
  });
  console.log(
    `monkey with a page, seed ${SEED}: ${report.ledger.total} API actions (${[...report.ledger.actions].map(([a, n]) => `${a} ${n}`).join(", ")}); page: ${[...applies].map(([a, n]) => `${a} ${n}`).join(", ")}`,
  );
  expect(report.problems, `replay with MONKEY_SEED=${SEED}`).toEqual([]);
  expect(applies.get("apply") ?? 0, "the page applied at least one skybox").toBeGreaterThan(0);
}, 240_000);
