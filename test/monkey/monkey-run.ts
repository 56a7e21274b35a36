/**
 * A monkey run: seeded simulated users against one target at once, then the checks of
 * what must hold whatever they did. A problem is returned as a sentence, never thrown
 * halfway, so one run reports all it found; `MONKEY_SEED` replays a run.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { STRAY_ERROR_MARK } from "../../src/cli/stray-errors.ts";
import { waitFor } from "../helpers/local-service.ts";
import { seededRandom } from "../helpers/seeded-random.ts";
import { type Json, Ledger, TERMINAL } from "./ledger.ts";
import { MonkeyUser, type Styles } from "./monkey-user.ts";
import type { MonkeyTarget } from "./monkey-targets.ts";

export interface MonkeyOptions {
  seed: number;
  users: number;
  /** Actions per user at most. */
  actions: number;
  /** Time for the actions at most; the checks come after. */
  durationMs: number;
  /** Runs beside the users until `deadline` (a page applying their skyboxes); returns its problems. */
  alongside?: (ledger: Ledger, random: ReturnType<typeof seededRandom>, deadline: number) => Promise<string[]>;
}

export interface MonkeyReport {
  seed: number;
  ledger: Ledger;
  seconds: number;
  problems: string[];
}

/** Log lines that mean an error escaped its job, request or timer. */
const STRAY = new RegExp(`${escape(STRAY_ERROR_MARK)}|Unhandled|uncaught|ENOENT|EPIPE|ERR_STREAM`, "i");

export async function runMonkey(target: MonkeyTarget, options: MonkeyOptions): Promise<MonkeyReport> {
  const random = seededRandom(options.seed);
  const ledger = new Ledger();
  const startCredits = await credits(target);
  const styles = await stylesOf(target);
  const users = Array.from(
    { length: options.users },
    (_, i) => new MonkeyUser(`user${i}`, target.api(`user${i}`), seededRandom(random(2 ** 31)), ledger, styles),
  );
  const t0 = performance.now();
  const deadline = Date.now() + options.durationMs;
  const beside = options.alongside?.(ledger, seededRandom(random(2 ** 31)), deadline) ?? Promise.resolve([]);
  await Promise.all(users.map((u) => u.run(options.actions, deadline)));
  const seconds = (performance.now() - t0) / 1000;
  const problems = [...target.dead(), ...ledger.failures, ...(await beside)];
  if (!problems.length)
    problems.push(
      ...(await checkRecords(target, ledger)),
      ...(await checkCredits(target, ledger, startCredits)),
      ...checkFolders(target, ledger),
    );
  problems.push(
    ...target
      .logs()
      .filter((l) => STRAY.test(l))
      .map((l) => `log: ${l.slice(0, 400)}`),
    ...target.dead(),
  );
  return { seed: options.seed, ledger, seconds, problems };
}

async function stylesOf(target: MonkeyTarget): Promise<Styles> {
  const { json } = await target.api("user0")("GET", "/skybox/styles");
  const styles = json as unknown as Json[];
  const of = (model: string) => styles.filter((s) => s.model === model).map((s) => s.id as number);
  return { model3: of("Model 3").slice(0, 6), model4: of("Model 4").slice(0, 6) };
}

/** The account's credits, where the target's admin routes are known. */
async function credits(target: MonkeyTarget): Promise<number | null> {
  const admin = target.local.admin;
  if (!admin) return null;
  const accounts = (await (
    await fetch(`${admin.url}/_admin/accounts`, { headers: { authorization: `Bearer ${admin.adminToken}` } })
  ).json()) as Json[];
  return accounts[0]!.credits as number;
}

/** Every acknowledged record is readable by its user with a known status; deleted ones are gone. */
async function checkRecords(target: MonkeyTarget, ledger: Ledger): Promise<string[]> {
  const problems: string[] = [];
  for (const g of ledger.generations.values()) {
    const { status, json } = await target.api(g.user)("GET", `/imagine/requests/${g.id}`);
    if (g.deleted) {
      if (status !== 404) problems.push(`deleted generation ${g.id} answers ${status}`);
    } else if (status !== 200) problems.push(`acknowledged generation ${g.id} answers ${status}: ${JSON.stringify(json).slice(0, 200)}`);
    else if (!TERMINAL.has(json.request.status) && !["pending", "dispatched", "processing"].includes(json.request.status))
      problems.push(`generation ${g.id} has status ${json.request.status}`);
    else if (TERMINAL.has(g.status) && json.request.status !== g.status)
      problems.push(`generation ${g.id} was ${g.status}, now ${json.request.status}`);
  }
  for (const [id, b] of ledger.batches) {
    const { status } = await target.api(b.user)("GET", `/skybox/batch/${id}`);
    if (status !== 200) problems.push(`acknowledged batch ${id} answers ${status}`);
  }
  for (const [id, e] of ledger.exports) {
    const { status, json } = await target.api(e.user)("GET", `/skybox/export/${id}`);
    if (status !== 200) problems.push(`acknowledged export ${id} answers ${status}`);
    else if (!["pending", "dispatched", "processing", "complete", "error", "abort"].includes(json.status))
      problems.push(`export ${id} has status ${json.status}`);
  }
  return problems;
}

/**
 * Once every generation has settled: credits = start − charges + refunds. A generation
 * deleted while live is refunded; one whose status at its deletion is unknown (it may
 * have completed in between) may or may not be, and the balance must be one of those sums.
 */
async function checkCredits(target: MonkeyTarget, ledger: Ledger, start: number | null): Promise<string[]> {
  const settled = await waitFor(
    async () => {
      for (const g of ledger.generations.values()) {
        if (g.deleted || TERMINAL.has(g.status)) continue;
        const { json } = await target.api(g.user)("GET", `/imagine/requests/${g.id}`);
        if (!TERMINAL.has(json.request?.status)) return false;
        ledger.generation(json.request, g.user);
      }
      return true;
    },
    60_000,
    100,
  ).catch(() => false);
  if (!settled) return ["generations did not settle within 60 s"];
  if (start === null) return [];
  const all = [...ledger.generations.values()];
  const charged = all.reduce((s, g) => s + g.cost, 0);
  // Deleted ones too: a generation aborted, then deleted, keeps its refund.
  const refunded = all.filter((g) => g.status === "abort" || g.status === "error").reduce((s, g) => s + g.cost, 0);
  const maybe = all.filter((g) => g.deleted?.wasLive === "unknown").map((g) => g.cost);
  const possible = subsetSums(maybe).map((extra) => start - charged + refunded + extra);
  const now = (await credits(target))!;
  return possible.includes(now)
    ? []
    : [
        `credits ${now}, expected start ${start} − charged ${charged} + refunded ${refunded} (+ one of the refunds of ${maybe.length} deleted while live)`,
      ];
}

function subsetSums(values: number[]): number[] {
  let sums = new Set([0]);
  for (const v of values) sums = new Set([...sums, ...[...sums].map((s) => s + v)]);
  return [...sums];
}

/** No generation folder that no acknowledged generation owns, and none left by an aborted one. */
function checkFolders(target: MonkeyTarget, ledger: Ledger): string[] {
  const byFolder = new Map([...ledger.generations.values()].map((g) => [g.obfuscatedId, g]));
  let folders: string[];
  try {
    folders = readdirSync(join(target.local.dataDir, "generations"));
  } catch {
    return [];
  }
  return folders.flatMap((name) => {
    const g = byFolder.get(name);
    if (!g) return [`folder generations/${name} belongs to no acknowledged generation`];
    return !g.deleted && g.status === "abort" ? [`aborted generation ${g.id} left its folder`] : [];
  });
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
