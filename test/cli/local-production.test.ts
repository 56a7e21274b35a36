/**
 * The README's local production set-up, as written and with no extra flag: `babylon-skybox
 * local`, and `babylon-skybox proxy --upstream` in front of it with SKYBOX_PUBLIC_URL on
 * loopback. The proxy adds its own webhook URL (a loopback address) to every generation;
 * the local service, listening on loopback, accepts it (it used to answer 422 unless
 * started with --allow-private-webhooks) and its signed webhooks reach the browser through
 * the proxy's relay.
 */
import { createServer } from "node:net";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createSkyboxClient } from "../../src/api/index.ts";
import { createStatusTracker, type StatusTracker } from "../../src/status/index.ts";
import { startLocalProcess, type LocalProcess } from "../helpers/local-service.ts";
import { startProxyProcess, type ProxyProcess } from "../helpers/proxy-process.ts";
import { collect, statusesOf } from "../status/status-fixture.ts";

let local: LocalProcess;
let proxy: ProxyProcess;
let tracker: StatusTracker | undefined;

/** A port free right now, so the proxy's public URL can be known before it starts. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer()
      .once("error", reject)
      .listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
  });

beforeAll(async () => {
  local = await startLocalProcess({ speed: 20 });
  const port = await freePort();
  const { key, wsHost, wsPort } = local.info.pusher;
  proxy = await startProxyProcess(
    { apiKey: local.info.apiKey, apiSecret: local.info.apiSecret, publicUrl: `http://127.0.0.1:${port}` },
    { port, upstream: local.info.url, "pusher-key": key, "pusher-ws-host": wsHost, "pusher-ws-port": wsPort },
  );
}, 60_000);
afterAll(async () => {
  tracker?.dispose();
  await Promise.all([proxy?.stop(), local?.stop()]);
});

test("a generation through the proxy is accepted with the proxy's loopback webhook URL, and its webhooks are relayed to the browser", async () => {
  const client = createSkyboxClient({ baseUrl: `${proxy.info.url}/skybox` });
  const config = await (await fetch(`${proxy.info.url}/skybox/config`)).json();
  expect(config.webhooksRelayed).toBe(true);
  // Polls far apart: the steps must come from the relayed webhooks.
  tracker = createStatusTracker({
    client,
    relay: { url: config.eventsUrl, transport: "fetch" },
    pollIntervalMs: 60_000,
    safetyPollMs: 60_000,
  });
  const created = await client.generate({ prompt: "a harbour at dusk", skybox_style_id: 2 });
  const updates = await collect(tracker.watchGeneration(created));
  expect(statusesOf(updates).at(-1)).toBe("complete");
  expect(updates.at(-1)!.source).toBe("relay");
  expect([...local.log, ...proxy.log].join("\n")).not.toMatch(/webhook_url|private or loopback|internal error/);
}, 60_000);
