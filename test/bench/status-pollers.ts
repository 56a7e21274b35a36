/**
 * The load of `status-load-bench.ts`, run as a process of its own so that its work does not
 * share an event loop with what it measures. Commands on stdin, one a line:
 *   poll <url> <url>...  start the pollers: each asks one of the URLs once a second, at a
 *                        random phase (a poll still under way at its next turn skips it)
 *   measure              keep the latencies from now on
 *   stop                 print `{ latencies, errors, statuses, skipped }` as one JSON line and exit
 * Writes `ready` once it reads commands.
 */
import { createInterface } from "node:readline";

const POLLERS = Number(process.env.POLLERS ?? 200);
const apiKey = process.env.SKYBOX_API_KEY ?? "";
const result = { latencies: [] as number[], errors: 0, statuses: {} as Record<string, number>, skipped: 0 };
let measuring = false;
let stopped = false;
const timers: ReturnType<typeof setTimeout>[] = [];

function startPoller(url: string): void {
  const start = performance.now() + Math.random() * 1000;
  let turn = 0;
  let busy = false;
  const next = () => {
    if (stopped) return;
    const at = start + turn++ * 1000;
    timers.push(setTimeout(() => void poll(), Math.max(0, at - performance.now())));
  };
  const poll = async () => {
    if (busy) return ((result.skipped += measuring ? 1 : 0), next());
    busy = true;
    next();
    const counted = measuring;
    const t0 = performance.now();
    try {
      const res = await fetch(url, { headers: { "x-api-key": apiKey } });
      await res.arrayBuffer();
      if (counted) {
        result.latencies.push(performance.now() - t0);
        result.statuses[res.status] = (result.statuses[res.status] ?? 0) + 1;
      }
    } catch {
      if (counted) result.errors++;
    } finally {
      busy = false;
    }
  };
  next();
}

createInterface({ input: process.stdin }).on("line", (line) => {
  const [command, ...args] = line.trim().split(/\s+/);
  if (command === "poll") for (let i = 0; i < POLLERS; i++) startPoller(args[i % args.length]!);
  else if (command === "measure") measuring = true;
  else if (command === "stop") {
    stopped = true;
    timers.forEach(clearTimeout);
    process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0));
  }
});
process.stdout.write("ready\n");
