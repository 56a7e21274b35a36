/**
 * Randomised user sessions (a monkey test): seeded simulated users generate, batch,
 * export, remix, edit, page history, poll, cancel and delete at random moments, against
 * the local service directly, through `babylon-skybox proxy`, and through the Vite plugin
 * in this process. After each run every process is alive, no error escaped its job, no
 * answer was a 5xx, every acknowledged record reads back, the credits add up, and no
 * folder is left behind. MONKEY_SEED replays a run; `npm run bench -- monkey` runs longer.
 */
import { afterEach, expect, test } from "vitest";
import { runMonkey } from "./monkey-run.ts";
import { type MonkeyTarget, startTarget, type TargetName } from "./monkey-targets.ts";

const SEED = Number(process.env.MONKEY_SEED ?? Date.now() % 1_000_000);
const RUN = { users: 3, actions: 60, durationMs: 15_000 };
let target: MonkeyTarget | undefined;
afterEach(() => target?.close());

test.each<TargetName>(["direct", "proxy", "vite"])(
  `monkey against %s (MONKEY_SEED=${SEED})`,
  async (name) => {
    target = await startTarget(name);
    const report = await runMonkey(target, { seed: SEED, ...RUN });
    console.log(
      `monkey ${name}, seed ${SEED}: ${report.ledger.total} actions in ${report.seconds.toFixed(1)} s (${[...report.ledger.actions].map(([a, n]) => `${a} ${n}`).join(", ")}); ${report.ledger.generations.size} generations`,
    );
    expect(report.problems, `replay with MONKEY_SEED=${SEED}`).toEqual([]);
    // A run in which the service accepted nothing (every generation refused) tested nothing.
    expect(report.ledger.total).toBeGreaterThan(20);
    expect(report.ledger.generations.size).toBeGreaterThan(5);
  },
  150_000,
);
