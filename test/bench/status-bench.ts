/**
 * Status tracking: what following one generation costs in requests, by polling alone
 * (the tracker's default intervals: 1 s doubling to 15 s) and with push (pusher-js on the
 * local service), both watching the same generation at once; and how late each saw the end.
 */
import { createSkyboxClient } from "../../src/api/index.ts";
import { createStatusTracker, type GenerationUpdate } from "../../src/status/index.ts";
import { startLocalProcess } from "../helpers/local-service.ts";

/** Lifecycle speed of the service: 2 turns the real ~30 s generation into ~15 s. */
const SPEED = 2;

export async function statusBench(): Promise<string> {
  const svc = await startLocalProcess({ speed: SPEED });
  try {
    const creator = createSkyboxClient({ baseUrl: svc.info.url, apiKey: svc.info.apiKey });
    const counted = () => {
      const count = { polls: 0 };
      const fetchCounting: typeof fetch = (input, init) => (count.polls++, fetch(input, init));
      return { count, client: createSkyboxClient({ baseUrl: svc.info.url, apiKey: svc.info.apiKey, fetch: fetchCounting, retry: 0 }) };
    };
    const polling = counted();
    const pushed = counted();
    const pollTracker = createStatusTracker({ client: polling.client, push: null });
    const pushTracker = createStatusTracker({ client: pushed.client, push: svc.info.pusher });
    await pushTracker.push!.ready();

    const created = await creator.generate({ prompt: "alpine lake at dawn", skybox_style_id: 2 });
    const started = performance.now();
    const seen = (updates: readonly GenerationUpdate[], at: number[]) =>
      `${updates.map((u) => u.status).join(" → ")}`.concat(` (end seen at ${(at.at(-1)! / 1000).toFixed(1)} s)`);
    const times = { poll: [] as number[], push: [] as number[] };
    const a = pollTracker.watchGeneration(created, { onUpdate: () => times.poll.push(performance.now() - started) });
    const b = pushTracker.watchGeneration(created, { onUpdate: () => times.push.push(performance.now() - started) });
    await Promise.all([a.done, b.done]);
    pollTracker.dispose();
    pushTracker.dispose();
    const lateBy = (times.poll.at(-1)! - times.push.at(-1)!) / 1000;
    return [
      `one generation at --speed ${SPEED} (${(times.push.at(-1)! / 1000).toFixed(1)} s from creation to complete):`,
      `  polling alone: ${polling.count.polls} requests; ${seen(a.updates, times.poll)}`,
      `  with push:     ${pushed.count.polls} request(s): ${Math.min(1, pushed.count.polls)} catch-up poll as the subscription came up, ${Math.max(0, pushed.count.polls - 1)} while push was up (safety poll every 30 s); ${seen(b.updates, times.push)}`,
      `  polling saw the end ${lateBy.toFixed(1)} s after push`,
    ].join("\n");
  } finally {
    await svc.stop();
  }
}
