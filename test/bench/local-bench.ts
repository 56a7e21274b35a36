import Pusher from "pusher-js";
import { createSkyboxClient } from "../../src/api/index.ts";
import { startLocalProcess, waitFor } from "../helpers/local-service.ts";
import { summary } from "./percentiles.ts";

const POLLERS = 200;
const POLL_SECONDS = 8;
const EVENT_SAMPLES = 40;

/**
 * Local service figures: status-route latency under 200 concurrent pollers while two
 * generations render, and event latency from a status change to pusher-js delivery.
 */
export async function localBench(): Promise<string[]> {
  const svc = await startLocalProcess({ speed: 2, "image-scale": 0.5, "rate-limit": 10_000_000 });
  const out: string[] = [];
  try {
    const client = createSkyboxClient({ baseUrl: svc.info.url, apiKey: svc.info.apiKey, retry: 0 });
    const rendering = await Promise.all([
      client.generate({ prompt: "alpine lake at sunset", skybox_style_id: 2 }),
      client.generate({ prompt: "city skyline at night", skybox_style_id: 9 }),
    ]);
    await waitFor(async () => (await client.getGeneration(rendering[0].id)).status === "processing", 30_000, 50);
    const latencies: number[] = [];
    const until = performance.now() + POLL_SECONDS * 1000;
    const url = `${svc.info.url}/api/v1/imagine/requests/${rendering[0].id}`;
    await Promise.all(
      Array.from({ length: POLLERS }, async () => {
        while (performance.now() < until) {
          const t0 = performance.now();
          const r = await fetch(url, { headers: { "x-api-key": svc.info.apiKey } });
          await r.arrayBuffer();
          latencies.push(performance.now() - t0);
        }
      }),
    );
    const states = await Promise.all(rendering.map((g) => client.getGeneration(g.id)));
    out.push(
      `status route under ${POLLERS} concurrent pollers for ${POLL_SECONDS} s while 2 generations render (${states.map((s) => s.status).join(", ")} at the end): ${summary(latencies)}, ${(latencies.length / POLL_SECONDS).toFixed(0)} req/s`,
    );
    out.push(`event latency, status change (cancel) → pusher-js delivery: ${summary(await eventLatencies(svc.info, client))}`);
  } finally {
    await svc.stop();
  }
  return out;
}

async function eventLatencies(
  info: Awaited<ReturnType<typeof startLocalProcess>>["info"],
  client: ReturnType<typeof createSkyboxClient>,
): Promise<number[]> {
  const pusher = new Pusher(info.pusher.key, {
    cluster: "mt1",
    wsHost: info.pusher.wsHost,
    wsPort: info.pusher.wsPort,
    forceTLS: false,
    enabledTransports: ["ws"],
  });
  const samples: number[] = [];
  try {
    for (let i = 0; i < EVENT_SAMPLES; i++) {
      const g = await client.generate({ prompt: `event sample ${i}`, skybox_style_id: 2 });
      const channel = pusher.subscribe(g.pusher_channel!);
      await new Promise<void>((resolve) => channel.bind("pusher:subscription_succeeded", () => resolve()));
      const delivered = new Promise<number>((resolve) =>
        channel.bind("status_update", (d: { status: string }) => d.status === "abort" && resolve(performance.now())),
      );
      // The cancel changes the status inside the request; the event leaves before the answer.
      const t0 = performance.now();
      await client.cancelGeneration(g.id);
      samples.push((await delivered) - t0);
      pusher.unsubscribe(g.pusher_channel!);
    }
  } finally {
    pusher.disconnect();
  }
  return samples;
}
