/**
 * `babylon-skybox proxy` in front of `babylon-skybox local`, both as processes: the proxy's
 * `/config` hands pusher-js the local push server (flags from the local service's JSON line),
 * and records that arrive by push, which the proxy never sees, reach the page with their
 * file URLs on the proxy, as the pane's Download links need them on another machine.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import Pusher from "pusher-js";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createSkyboxClient, readProxyConfig, type ProxyConfig } from "../../src/api/index.ts";
import { createStatusTracker } from "../../src/status/index.ts";
import type { StatusUpdate } from "../../src/status/updates.ts";
import { startLocalProcess, type LocalProcess } from "../helpers/local-service.ts";

let local: LocalProcess;
let proxy: ChildProcess;
let proxyUrl: string;

beforeAll(async () => {
  local = await startLocalProcess();
  const { key, wsHost, wsPort } = local.info.pusher;
  const args = [
    "--port",
    "0",
    "--upstream",
    local.info.url,
    "--pusher-key",
    key,
    "--pusher-ws-host",
    wsHost,
    "--pusher-ws-port",
    String(wsPort),
  ];
  proxy = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "proxy", ...args], {
    env: { ...process.env, SKYBOX_API_KEY: local.info.apiKey, SKYBOX_API_SECRET: local.info.apiSecret },
    stdio: ["ignore", "pipe", "pipe"],
  });
  proxyUrl = (
    JSON.parse(await new Promise<string>((resolve) => createInterface({ input: proxy.stdout! }).once("line", resolve))) as { url: string }
  ).url;
});
afterAll(async () => {
  proxy.kill("SIGTERM");
  await local.stop();
});

test("the proxy's /config points pusher-js at the local push server; pushed records' file URLs are the proxy's", async () => {
  const config: ProxyConfig = readProxyConfig(await (await fetch(`${proxyUrl}/skybox/config`)).json());
  expect(config.push).toEqual({
    key: local.info.pusher.key,
    cluster: "mt1",
    forceTLS: false,
    wsHost: local.info.pusher.wsHost,
    wsPort: local.info.pusher.wsPort,
    enabledTransports: ["ws"],
  });
  expect(config.upstream).toBe("local");

  const client = createSkyboxClient({ baseUrl: `${proxyUrl}/skybox`, retry: 0 });
  const tracker = createStatusTracker({
    client,
    push: config.push,
    assetsUrl: config.assetsUrl,
    Pusher,
    pollIntervalMs: 5000,
    safetyPollMs: 60_000,
  });
  try {
    const seen: StatusUpdate[] = [];
    const [style] = await client.styles({ model_version: 3 });
    const skybox = await tracker.watchGeneration(await client.generate({ prompt: "harbour at dusk", skybox_style_id: style!.id }), {
      onUpdate: (u) => seen.push(u),
    }).done;
    const exported = await tracker.watchExport(await client.requestExport({ skybox_id: skybox.obfuscated_id, type_id: 2 }), {
      onUpdate: (u) => seen.push(u),
    }).done;

    expect(seen.filter((u) => u.source === "push").length).toBeGreaterThan(0);
    for (const url of [skybox.file_url, exported.file_url]) {
      expect(url.startsWith(`${config.assetsUrl}/http/`)).toBe(true);
      expect((await fetch(new URL(url, proxyUrl))).status).toBe(200);
    }
    // What arrived by push went through the same rule: no upstream URL reached the page.
    const pushed = seen.filter((u) => u.source === "push").map((u) => JSON.stringify(u.record));
    expect(pushed.filter((json) => json.includes(local.info.url))).toEqual([]);
  } finally {
    tracker.dispose();
  }
});
