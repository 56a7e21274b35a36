/**
 * The status route under a realistic load: 200 pollers at one poll a second each (random
 * phase), from a separate process (status-pollers.ts), while two full-size renders run on
 * the local service. The figures cover exactly the renders: from both generations being
 * processing to both being complete.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { createSkyboxClient } from "../../src/api/index.ts";
import { startLocalProcess, waitFor } from "../helpers/local-service.ts";
import { summary } from "./percentiles.ts";

const POLLERS = 200;
/** Lifecycle speed: the minimum processing time becomes 2.5 s, so the render itself sets how long processing lasts. */
const SPEED = 10;
/** The window ends after this long even if the renders have not. */
const MAX_WINDOW_MS = 60_000;

interface PollerResult {
  latencies: number[];
  errors: number;
  statuses: Record<string, number>;
  skipped: number;
}

export async function statusLoadBench(): Promise<string[]> {
  const svc = await startLocalProcess({ speed: SPEED, "image-scale": 1, "rate-limit": 100_000_000 });
  const child = spawn(process.execPath, ["--import", "tsx", "test/bench/status-pollers.ts"], {
    stdio: ["pipe", "pipe", "inherit"],
    env: { ...process.env, POLLERS: String(POLLERS), SKYBOX_API_KEY: svc.info.apiKey },
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const nextLine = async () => String((await lines.next()).value ?? "");
  const send = (line: string) => child.stdin.write(`${line}\n`);
  try {
    if ((await nextLine()) !== "ready") throw new Error("the pollers' process did not start");
    const client = createSkyboxClient({ baseUrl: svc.info.url, apiKey: svc.info.apiKey, retry: 0 });
    const renders = await Promise.all([
      client.generate({ prompt: "alpine lake at sunset", skybox_style_id: 2 }),
      client.generate({ prompt: "city skyline at night", skybox_style_id: 9 }),
    ]);
    send(`poll ${renders.map((g) => `${svc.info.url}/api/v1/imagine/requests/${g.id}`).join(" ")}`);
    const statuses = async () => Promise.all(renders.map(async (g) => (await client.getGeneration(g.id)).status));
    await waitFor(async () => (await statuses()).every((s) => s === "processing"), 30_000, 20);
    send("measure");
    const t0 = performance.now();
    await waitFor(async () => (await statuses()).every((s) => s !== "processing"), MAX_WINDOW_MS, 100).catch(() => null);
    const windowMs = performance.now() - t0;
    send("stop");
    const result = JSON.parse(await nextLine()) as PollerResult;
    const ended = await statuses();
    const codes = Object.entries(result.statuses)
      .map(([s, n]) => `${n}×${s}`)
      .join(", ");
    return [
      `status route (GET /imagine/requests/{id}), ${POLLERS} pollers at 1 poll/s each (random phase, from a separate process), while 2 full-size renders run (${(windowMs / 1000).toFixed(1)} s, ${ended.join(" and ")} at the end):`,
      `  ${summary(result.latencies)}; answers ${codes || "none"}; ${result.errors} network errors; ${result.skipped} polls skipped (the previous one still waiting)`,
    ];
  } finally {
    child.kill();
    await svc.stop();
  }
}
