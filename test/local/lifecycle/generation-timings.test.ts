import { afterAll, beforeAll, expect, test } from "vitest";
import { createSkyboxClient } from "../../../src/api/index.ts";
import { GENERATION_TIMINGS_LOG } from "../../../src/local/lifecycle/generation-timings.ts";
import { startLocalProcess, waitFor, type LocalProcess } from "../../helpers/local-service.ts";

let debug: LocalProcess;
let info: LocalProcess;
beforeAll(async () => {
  [debug, info] = await Promise.all([startLocalProcess({ "log-level": "debug" }), startLocalProcess()]);
});
afterAll(() => Promise.all([debug.stop(), info.stop()]));

async function generate(svc: LocalProcess): Promise<number> {
  const client = createSkyboxClient({ baseUrl: svc.info.url, apiKey: svc.info.apiKey, retry: 0 });
  const g = await client.generate({ prompt: "alpine lake at dawn", skybox_style_id: 2 });
  await waitFor(async () => (await client.getGeneration(g.id)).status === "complete", 60_000, 50);
  return g.id;
}

test("at --log-level debug, a completed generation logs where its time went: queue, worker start, render, encode, writes", async () => {
  const id = await generate(debug);
  const prefix = `${GENERATION_TIMINGS_LOG} ${id} `;
  const line = await waitFor(() => debug.log.find((l) => l.includes(prefix)), 5_000, 20);
  const timings = JSON.parse(line.slice(line.indexOf(prefix) + prefix.length)) as Record<string, number>;
  expect(Object.keys(timings)).toEqual(["queue", "workerStart", "render", "encode", "writes"]);
  for (const ms of Object.values(timings)) expect(ms).toBeGreaterThanOrEqual(0);
  // --speed 50: the pending and dispatch delays (100 ms) are part of the queue.
  expect(timings.queue).toBeGreaterThanOrEqual(90);
  expect(timings.render).toBeGreaterThan(0);
});

test("at the default log level, no timings are logged", async () => {
  await generate(info);
  expect(info.log.some((l) => l.includes(GENERATION_TIMINGS_LOG))).toBe(false);
});
