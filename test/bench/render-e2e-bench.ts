/**
 * What a user of `babylon-skybox local` waits for and what it costs the machine: from
 * POST /api/v1/skybox on a freshly started process (the built command users run: `npm run
 * build`, then `node dist/cli/bin.js local`; full size, `--speed 1000`) until the
 * record is complete and its file_url, thumb_url and depth_map_url have been fetched:
 * the first generation after start (cold), in COLD_RUNS fresh processes, each against the
 * floor of the same size measured right before it (the median is read against the goal),
 * then a second generation in the first process after SETTLE_SECONDS idle ("again": another
 * seed, so another picture, and a new render process, since an idle one ends after 10 s to give
 * its memory back, so its start shows in workerStart); the time split by the service's own timings (its debug
 * log line per generation) plus the serving the client measures; and the resident memory
 * of the process tree idle, at the peak of the render and 15 s after.
 */
import { availableParallelism, tmpdir } from "node:os";
import { createSkyboxClient } from "../../src/api/index.ts";
import { IMAGE_SIZES } from "../../src/api/reference.ts";
import { GENERATION_TIMINGS_LOG } from "../../src/local/lifecycle/generation-timings.ts";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { LocalServiceInfo } from "../../src/local/service-options.ts";
import { type CliProcess, flagArgs, startScriptProcess } from "../helpers/cli-process.ts";
import { waitFor } from "../helpers/local-service.ts";
import { imageryFloor } from "./imagery-floor.ts";
import { median } from "./percentiles.ts";
import { treeRss } from "./process-usage.ts";

const PROMPT = "alpine lake at sunset with snowy mountains";
/** Goals of issue 26: cold end to end against the floor, and the service's memory. */
const GOALS = { 3: 9.5, 4: 11 } as const;
const PEAK_GOAL_MB = 600;
const AFTER_GOAL_MB = 250;
const SETTLE_SECONDS = 15;

interface Model {
  model: 3 | 4;
  styleId: number;
  variantId?: number;
}

const MODELS: Model[] = [
  { model: 3, styleId: 2 },
  { model: 4, styleId: 101, variantId: 1011 },
];

interface EndToEnd {
  seconds: number;
  /** The service's split (ms), from its log line. */
  phases: Record<string, number>;
  /** From the poll that saw `complete` to the three files fetched, ms. */
  servingMs: number;
}

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
const s2 = (n: number) => n.toFixed(2);

/** POST, poll until complete, fetch the three files: the wall time a user waits. */
async function endToEnd(svc: CliProcess<LocalServiceInfo>, m: Model, seed: number): Promise<EndToEnd> {
  const client = createSkyboxClient({ baseUrl: svc.info.url, apiKey: svc.info.apiKey, retry: 0 });
  const t0 = performance.now();
  const g = await client.generate({
    prompt: PROMPT,
    skybox_style_id: m.styleId,
    ...(m.variantId ? { variant_id: m.variantId } : {}),
    seed,
  });
  // Polled every 50 ms: the renderer's workers run at nice 10, and a poll every 10 ms (with
  // the service answering it) took CPU that a user's client does not.
  const done = await waitFor(
    async () => {
      const r = await client.getGeneration(g.id);
      if (r.status === "error" || r.status === "abort") throw new Error(`generation ${g.id} ended in ${r.status}: ${r.error_message}`);
      return r.status === "complete" && r;
    },
    // Minutes on a machine that others load too: a figure late is better than none.
    600_000,
    50,
  );
  const served = performance.now();
  await Promise.all(
    [done.file_url, done.thumb_url, done.depth_map_url].map(async (url) => {
      const res = await fetch(url);
      if (!res.ok) throw new Error(`${url} answered ${res.status}`);
      await res.arrayBuffer();
    }),
  );
  const end = performance.now();
  return { seconds: (end - t0) / 1000, phases: await timingsOf(svc, g.id), servingMs: end - served };
}

/** The service's timings of generation `id` (it logs them as the record completes), empty if it logged none. */
async function timingsOf(svc: CliProcess<LocalServiceInfo>, id: number): Promise<Record<string, number>> {
  const prefix = `${GENERATION_TIMINGS_LOG} ${id} `;
  const line = await waitFor(() => svc.log.find((l) => l.includes(prefix)), 2_000, 10).catch(() => null);
  return line ? (JSON.parse(line.slice(line.indexOf(prefix) + prefix.length)) as Record<string, number>) : {};
}

function splitLine(r: EndToEnd): string {
  const parts = Object.entries(r.phases).map(([k, ms]) => `${k} ${s2(ms / 1000)}`);
  return `${parts.join(", ")}, serving ${s2(r.servingMs / 1000)} s`;
}

/** Highest tree RSS while `work` runs. */
async function peakDuring<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = treeRss(pid);
  // Every 50 ms, for the same reason; a render's peak lasts seconds.
  const timer = setInterval(() => (peak = Math.max(peak, treeRss(pid))), 50);
  try {
    const result = await work();
    return { result, peak: Math.max(peak, treeRss(pid)) };
  } finally {
    clearInterval(timer);
  }
}

/**
 * Cold runs per model, each in a fresh process against a floor measured right before it: on
 * a shared two-core machine one cold render's ratio moves by a third between runs minutes
 * apart (Model 4: 9.6x to 13.9x for the same code), so the median is what the goal is read
 * against.
 */
const COLD_RUNS = 3;
/** Measures of the floor before each cold run (its median is taken): Model 4's, half a second, moves by a third too. */
const FLOOR_RUNS = 3;

interface ColdRun {
  floor: number;
  run: EndToEnd;
}

/** A fresh `node dist/cli/bin.js local` for `work`, stopped after. */
async function withService<T>(work: (svc: CliProcess<LocalServiceInfo>, pid: number) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), "skybox-e2e-bench-"));
  const flags = { port: 0, speed: 1000, "rate-limit": 10_000_000, "log-level": "debug", "data-dir": dataDir };
  const svc = await startScriptProcess<LocalServiceInfo>("dist/cli/bin.js", ["local", ...flagArgs(flags)]);
  try {
    // The service is listening; what it does on its own right after start belongs to idle.
    await new Promise((r) => setTimeout(r, 1000));
    return await work(svc, svc.child.pid!);
  } finally {
    await svc.kill("SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Fresh processes per model: cold runs (the first with memory around it, then a generation again after idle). */
async function benchModel(m: Model): Promise<string[]> {
  const size = m.model === 3 ? IMAGE_SIZES.model3 : IMAGE_SIZES.model4;
  // The floor right before each cold run, so that both see the same load: the median of FLOOR_RUNS, as it moves too.
  const floorNow = async () => {
    const floors: number[] = [];
    for (let i = 0; i < FLOOR_RUNS; i++) floors.push((await imageryFloor(size.width, size.height, availableParallelism())).total);
    return median(floors);
  };
  const firstFloor = await floorNow();
  const first = await withService(async (svc, pid) => {
    const idle = treeRss(pid);
    const cold = await peakDuring(pid, () => endToEnd(svc, m, 1));
    await new Promise((r) => setTimeout(r, SETTLE_SECONDS * 1000));
    const after = treeRss(pid);
    return { idle, cold, after, again: await endToEnd(svc, m, 2) };
  });
  const colds: ColdRun[] = [{ floor: firstFloor, run: first.cold.result }];
  while (colds.length < COLD_RUNS) {
    const floor = await floorNow();
    colds.push({ floor, run: await withService((svc) => endToEnd(svc, m, 1)) });
  }
  const ratio = (c: ColdRun) => c.run.seconds / c.floor;
  const middle = median(colds.map(ratio));
  const typical = colds.find((c) => ratio(c) === middle)!;
  const label = `Model ${m.model} ${size.width}x${size.height}`;
  const lines = [
    `floor Model ${m.model} (same run, median of ${FLOOR_RUNS} before each cold run): ${colds.map((c) => s2(c.floor)).join(", ")} s`,
    `end to end ${label} cold (POST on a fresh \`node dist/cli/bin.js local --speed 1000\` → file, thumb and depth map fetched), median of ${COLD_RUNS} fresh processes: ${s2(typical.run.seconds)} s = ${middle.toFixed(1)}x the floor (goal ≤ ${GOALS[m.model]}x; runs ${colds.map((c) => `${ratio(c).toFixed(1)}x`).join(", ")})`,
    `  ${splitLine(typical.run)}`,
    `end to end ${label} again (the first process, after ${SETTLE_SECONDS} s idle: seed 2, a new render process): ${s2(first.again.seconds)} s = ${(first.again.seconds / firstFloor).toFixed(1)}x the floor`,
    `  ${splitLine(first.again)}`,
  ];
  if (m.model === 3) {
    lines.push(
      `local service RSS (process tree, worker threads included) around a Model 3 render: idle ${mb(first.idle)} MB, peak ${mb(first.cold.peak)} MB (goal ≤ ${PEAK_GOAL_MB}), ${SETTLE_SECONDS} s after ${mb(first.after)} MB (goal < ${AFTER_GOAL_MB})`,
    );
  }
  return lines;
}

export async function renderEndToEndBench(): Promise<string[]> {
  execFileSync("npm", ["run", "--silent", "build"], { stdio: "ignore" });
  const out: string[] = [];
  for (const m of MODELS) out.push(...(await benchModel(m)));
  return out;
}
