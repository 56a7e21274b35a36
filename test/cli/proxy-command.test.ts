import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, expect, test } from "vitest";
import { runProxyCommand } from "../../src/cli/proxy-command.ts";
import { startRecordingServer } from "../helpers/recording-server.ts";
import { KEY, SECRET } from "../proxy/proxy-fixture.ts";

let upstream: Awaited<ReturnType<typeof startRecordingServer>>;
beforeAll(async () => {
  upstream = await startRecordingServer(() => ({ body: [] }));
});
afterAll(() => upstream.close());

const script = "import { runProxyCommand } from './src/cli/proxy-command.ts'; await runProxyCommand(process.argv.slice(1));";

test("`proxy` prints one JSON line once listening on loopback, forwards with the key from the environment, and stops on SIGTERM", async () => {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "-e", script, "--", "--port", "0", "--upstream", upstream.url],
    {
      env: {
        ...process.env,
        SKYBOX_API_KEY: KEY,
        SKYBOX_API_SECRET: SECRET,
        SKYBOX_PUBLIC_URL: "https://proxy.example.test",
        SKYBOX_PUSHER_KEY: "pk",
        SKYBOX_PUSHER_CLUSTER: "eu",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  try {
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once("line", resolve);
      void exited.then((code) => reject(new Error(`exited ${code}`)));
    });
    const { url } = JSON.parse(line) as { url: string };
    expect(Object.keys(JSON.parse(line))).toEqual(["url"]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const config = await (await fetch(`${url}/skybox/config`)).json();
    expect(config).toEqual({
      upstream: "local",
      push: { key: "pk", cluster: "eu", forceTLS: true },
      webhooksRelayed: true,
      eventsUrl: "https://proxy.example.test/skybox/events",
      assetsUrl: "https://proxy.example.test/skybox/assets",
    });
    expect((await fetch(`${url}/skybox/api/v1/skybox/styles`)).status).toBe(200);
    expect(upstream.last().headers["x-api-key"]).toBe(KEY);
  } finally {
    child.kill("SIGTERM");
  }
  expect(await exited).toBe(0);
});

test("`proxy` refuses to start without a key or with a bad port", async () => {
  await expect(runProxyCommand([], {})).rejects.toThrow(/SKYBOX_API_KEY is not set/);
  await expect(runProxyCommand(["--port", "http"], { SKYBOX_API_KEY: KEY })).rejects.toThrow(/--port/);
  await expect(runProxyCommand(["--nope"], { SKYBOX_API_KEY: KEY })).rejects.toThrow();
});

test("push settings come from flags, else the environment, checked", async () => {
  const { pushSettingsOf } = await import("../../src/cli/push-flags.ts");
  expect(pushSettingsOf({}, {})).toBeNull();
  expect(
    pushSettingsOf({ "pusher-key": "k", "pusher-ws-host": "127.0.0.1", "pusher-ws-port": "8790" }, { SKYBOX_PUSHER_KEY: "env" }),
  ).toEqual({ key: "k", wsHost: "127.0.0.1", wsPort: 8790 });
  expect(
    pushSettingsOf(
      {},
      { SKYBOX_PUSHER_KEY: "k", SKYBOX_PUSHER_WS_HOST: "h", SKYBOX_PUSHER_WS_PORT: "6001", SKYBOX_PUSHER_FORCE_TLS: "True" },
    ),
  ).toEqual({ key: "k", wsHost: "h", wsPort: 6001, forceTLS: true });
  expect(() => pushSettingsOf({ "pusher-ws-host": "h" }, {})).toThrow(/need a key/);
  expect(() => pushSettingsOf({ "pusher-key": "k", "pusher-ws-port": "http" }, {})).toThrow(/wsPort/);
  expect(() => pushSettingsOf({ "pusher-key": "k", "pusher-ws-port": "70000" }, {})).toThrow(
    /must be an integer from 1 to 65535\n.*wsPort/,
  );
});

test("--rate-limit is PER_SECOND[/BURST] or off", async () => {
  const { rateLimitOf } = await import("../../src/cli/rate-limit-flag.ts");
  expect(rateLimitOf(undefined)).toBeUndefined();
  expect(rateLimitOf("off")).toBe(false);
  expect(rateLimitOf("10")).toEqual({ perSecond: 10, burst: 120 });
  expect(rateLimitOf("0.5/3")).toEqual({ perSecond: 0.5, burst: 3 });
  expect(() => rateLimitOf("fast")).toThrow(/--rate-limit/);
  expect(() => rateLimitOf("0")).toThrow(/--rate-limit/);
});
