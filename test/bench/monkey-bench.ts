/**
 * Longer monkey runs than `npm test`'s (test/monkey/): more users, a minute against each
 * target by default (SKYBOX_MONKEY_SECONDS), one seed per target (MONKEY_SEED replays the
 * first; the others follow from it). Prints actions per second, the mix, and every problem
 * found with the seed that replays it. Figures, not assertions.
 */
import { runMonkey } from "../monkey/monkey-run.ts";
import { startTarget, type TargetName } from "../monkey/monkey-targets.ts";

const SECONDS = Number(process.env.SKYBOX_MONKEY_SECONDS ?? 60);
const USERS = 6;

export async function monkeyBench(): Promise<string[]> {
  const first = Number(process.env.MONKEY_SEED ?? Date.now() % 1_000_000);
  const lines = [`${USERS} users, ${SECONDS} s of actions against each target, then the checks:`];
  const targets: TargetName[] = ["direct", "proxy", "vite"];
  for (const [i, name] of targets.entries()) {
    const seed = first + i;
    const target = await startTarget(name);
    try {
      const report = await runMonkey(target, { seed, users: USERS, actions: 100_000, durationMs: SECONDS * 1000 });
      const mix = [...report.ledger.actions]
        .sort((a, b) => b[1] - a[1])
        .map(([a, n]) => `${a} ${n}`)
        .join(", ");
      lines.push(
        `  ${target.name}: MONKEY_SEED=${seed}: ${report.ledger.total} actions in ${report.seconds.toFixed(1)} s = ${(report.ledger.total / report.seconds).toFixed(1)} actions/s; ` +
          `${report.ledger.generations.size} generations, ${report.ledger.exports.size} exports, ${report.ledger.batches.size} batches; ${report.problems.length} problems`,
        `    mix: ${mix}`,
        ...report.problems.slice(0, 20).map((p) => `    problem: ${p}`),
      );
    } finally {
      await target.close();
    }
  }
  lines.push(`seeds used: ${targets.map((_, i) => first + i).join(", ")}`);
  return lines;
}
