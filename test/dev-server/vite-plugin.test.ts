import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createServer, preview, type PreviewServer, type ViteDevServer } from "vite";
import skyboxProxy, { DEV_LOCAL_DEFAULTS, type LocalUpstream } from "../../src/dev-server/vite-plugin.ts";
import type { LocalServiceOptions } from "../../src/local/service-options.ts";
import { startRecordingServer } from "../helpers/recording-server.ts";
import { creationResponse, model3Style } from "../fixtures/api-shapes.ts";
import { KEY } from "../proxy/proxy-fixture.ts";

let root: string;
let upstream: Awaited<ReturnType<typeof startRecordingServer>>;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "skybox-vite-"));
  writeFileSync(join(root, "index.html"), "<!doctype html><title>app</title>");
  upstream = await startRecordingServer((r) => ({ body: r.method === "POST" ? creationResponse : [model3Style] }));
});
afterAll(async () => {
  await upstream.close();
  rmSync(root, { recursive: true, force: true });
});

const quiet = () => ({ logLevel: "silent", configFile: false, root }) as const;
const urlOf = (server: ViteDevServer | PreviewServer) => server.resolvedUrls!.local[0]!.replace(/\/$/, "");

/** A stand-in for the local service: the recording server, with push settings, closed with the plugin. */
function fakeLocal() {
  const calls = { started: 0, closed: 0, options: [] as LocalServiceOptions[] };
  const start = async (options: LocalServiceOptions): Promise<LocalUpstream> => {
    calls.started++;
    calls.options.push(options);
    return {
      url: upstream.url,
      apiKey: "local-key-123456",
      apiSecret: "local-secret-123456",
      pusher: { key: "local-push", cluster: "mt1", wsHost: "127.0.0.1", wsPort: 8790 },
      close: async () => void calls.closed++,
    };
  };
  return { calls, start };
}

describe("vite plugin", () => {
  test("with a key: the dev server forwards /skybox/api/v1 with it and leaves other paths to Vite", async () => {
    const server = await createServer({
      ...quiet(),
      server: { port: 0, host: "127.0.0.1" },
      plugins: [skyboxProxy({ apiKey: KEY, upstream: upstream.url })],
    });
    await server.listen();
    try {
      const res = await fetch(`${urlOf(server)}/skybox/api/v1/skybox/styles`);
      expect(res.status).toBe(200);
      expect(upstream.last().headers["x-api-key"]).toBe(KEY);
      expect(await (await fetch(`${urlOf(server)}/skybox/config`)).json()).toMatchObject({ upstream: "local", push: null });
      const page = await fetch(`${urlOf(server)}/`, { headers: { accept: "text/html" } });
      expect(await page.text()).toContain("<title>app</title>");
    } finally {
      await server.close();
    }
  });

  test("without a key: it starts the local service, uses it, relays its webhooks to itself, and closes it with the server", async () => {
    const saved = process.env.SKYBOX_API_KEY;
    delete process.env.SKYBOX_API_KEY;
    const local = fakeLocal();
    const server = await createServer({
      ...quiet(),
      server: { port: 0, host: "127.0.0.1" },
      plugins: [skyboxProxy({ startLocal: local.start })],
    });
    try {
      await server.listen();
      expect(local.calls.started).toBe(1);
      // A newcomer's first skybox: the real lifecycle, 3x faster, at half size.
      expect(local.calls.options[0]).toEqual({ port: 0, speed: 3, imageScale: 0.5, exportScale: 1, allowPrivateWebhooks: true });
      const res = await fetch(`${urlOf(server)}/skybox/api/v1/skybox`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"prompt":"p","skybox_style_id":2}',
      });
      expect(res.status).toBe(200);
      const sent = upstream.last();
      expect(sent.headers["x-api-key"]).toBe("local-key-123456");
      expect(sent.json()).toEqual({ prompt: "p", skybox_style_id: 2, webhook_url: `${urlOf(server)}/skybox/webhook` });
      expect(await (await fetch(`${urlOf(server)}/skybox/config`)).json()).toEqual({
        upstream: "local",
        push: { key: "local-push", cluster: "mt1", wsHost: "127.0.0.1", wsPort: 8790, forceTLS: false, enabledTransports: ["ws"] },
        webhooksRelayed: true,
        eventsUrl: "/skybox/events",
        assetsUrl: "/skybox/assets",
        // The dev server's "Save to project" route (test/dev-server/save-route.test.ts).
        saveToProject: "/skybox/project/skyboxes",
        // Where it writes, from the project's root (here Vite's own: no package.json above it).
        saveToProjectFolder: "public/skyboxes",
      });
    } finally {
      await server.close();
      if (saved !== undefined) process.env.SKYBOX_API_KEY = saved;
    }
    expect(local.calls.closed).toBe(1);
  });

  test("the local service's options override the plugin's defaults one by one", async () => {
    const saved = process.env.SKYBOX_API_KEY;
    delete process.env.SKYBOX_API_KEY;
    const local = fakeLocal();
    const server = await createServer({
      ...quiet(),
      server: { port: 0, host: "127.0.0.1" },
      plugins: [skyboxProxy({ startLocal: local.start, local: { speed: 1, dataDir: "d" } })],
    });
    try {
      await server.listen();
      expect(local.calls.options[0]).toEqual({ ...DEV_LOCAL_DEFAULTS, speed: 1, dataDir: "d" });
    } finally {
      await server.close();
      if (saved !== undefined) process.env.SKYBOX_API_KEY = saved;
    }
  });

  test("the preview server mounts it too", async () => {
    const local = fakeLocal();
    const server = await preview({
      ...quiet(),
      build: { outDir: root },
      preview: { port: 0, host: "127.0.0.1" },
      plugins: [skyboxProxy({ apiKey: KEY, upstream: upstream.url, startLocal: local.start })],
    });
    try {
      expect((await fetch(`${urlOf(server)}/skybox/api/v1/skybox/styles`)).status).toBe(200);
      expect(upstream.last().headers["x-api-key"]).toBe(KEY);
      expect((await fetch(`${urlOf(server)}/skybox/api/v1/nope`)).status).toBe(404);
      expect(local.calls.started).toBe(0);
    } finally {
      await server.close();
    }
  });
});
