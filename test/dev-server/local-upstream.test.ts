import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { expect, test } from "vitest";
import { createServer } from "vite";
import { createSkyboxClient } from "../../src/api/index.ts";
import skyboxProxy, { type LocalUpstream } from "../../src/dev-server/vite-plugin.ts";
import { Transcript } from "../proxy/proxy-fixture.ts";

/**
 * The whole path with the real local service, as `npm run dev` runs it with no key: the
 * plugin starts the service, a generation goes through the proxy, its webhooks come back to
 * the dev server and reach an event-stream reader, and the image loads same-origin.
 */
test("dev server with no key: generate, follow by relayed webhooks, load the image", async () => {
  const root = mkdtempSync(join(tmpdir(), "skybox-vite-local-"));
  writeFileSync(join(root, "index.html"), "<!doctype html>");
  const saved = process.env.SKYBOX_API_KEY;
  delete process.env.SKYBOX_API_KEY;
  let local: LocalUpstream | null = null;
  const { startLocalSkyboxService } = await import("../../src/local/index.ts");
  const startLocal = async (options: object) => (local = await startLocalSkyboxService({ ...options, log: () => {} }));
  const server = await createServer({
    logLevel: "silent",
    configFile: false,
    root,
    server: { port: 0, host: "127.0.0.1" },
    plugins: [skyboxProxy({ local: { dataDir: join(root, "data"), speed: 50, imageScale: 0.0625 }, startLocal })],
  });
  const transcript = new Transcript();
  try {
    await server.listen();
    const base = server.resolvedUrls!.local[0]!.replace(/\/$/, "");
    const client = createSkyboxClient({ baseUrl: `${base}/skybox`, fetch: transcript.fetch });
    const config = await (await transcript.fetch(`${base}/skybox/config`)).json();
    expect(config).toMatchObject({ upstream: "local", webhooksRelayed: true, eventsUrl: "/skybox/events", push: { wsHost: "127.0.0.1" } });

    const [style] = await client.styles({ model_version: 3 });
    const g = await client.generate({ prompt: "alpine lake at dawn", skybox_style_id: style!.id });
    // Plain fetch: the transcript reads bodies to their end, and this one has none.
    const events = await fetch(`${base}/skybox/events?channel=${g.pusher_channel}`);
    const reader = events.body!.getReader();
    let text = "";
    let complete: { status: string; file_url: string } | null = null;
    while (!complete) {
      const { value, done } = await reader.read();
      if (done) throw new Error("event stream ended");
      text += new TextDecoder().decode(value);
      const records = [...text.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]!));
      complete = records.find((r) => r.status === "complete") ?? null;
    }
    await reader.cancel();
    transcript.seen.push(text);
    expect(complete.file_url).toMatch(/^\/skybox\/assets\/http\/127\.0\.0\.1:\d+\/.+\.jpg$/);

    const image = await transcript.fetch(`${base}${complete.file_url}`);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/jpeg");
    const bytes = new Uint8Array(await image.arrayBuffer());
    expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);
    expect(transcript.leaks([local!.apiKey, local!.apiSecret])).toEqual([]);
  } finally {
    await server.close();
    if (saved !== undefined) process.env.SKYBOX_API_KEY = saved;
    rmSync(root, { recursive: true, force: true });
  }
});

/**
 * The dev server draws generations at a fraction of their size to be quick, but an export
 * is what its resolution's label says: a "2K" equirectangular JPG is 2048 x 1024.
 */
test("dev server with no key: an export has the size its resolution names, while generations are drawn smaller", async () => {
  const root = mkdtempSync(join(tmpdir(), "skybox-vite-export-"));
  writeFileSync(join(root, "index.html"), "<!doctype html>");
  const saved = process.env.SKYBOX_API_KEY;
  delete process.env.SKYBOX_API_KEY;
  const { startLocalSkyboxService } = await import("../../src/local/index.ts");
  const server = await createServer({
    logLevel: "silent",
    configFile: false,
    root,
    server: { port: 0, host: "127.0.0.1" },
    plugins: [
      skyboxProxy({
        local: { dataDir: join(root, "data"), speed: 50, imageScale: 0.0625 },
        startLocal: (options) => startLocalSkyboxService({ ...options, log: () => {} }),
      }),
    ],
  });
  try {
    await server.listen();
    const base = server.resolvedUrls!.local[0]!.replace(/\/$/, "");
    const client = createSkyboxClient({ baseUrl: `${base}/skybox` });
    const [style] = await client.styles({ model_version: 3 });
    let g = await client.generate({ prompt: "desert canyon at noon", skybox_style_id: style!.id });
    while (g.status !== "complete") {
      await new Promise((r) => setTimeout(r, 100));
      g = await client.getGeneration(g.id);
    }
    const sizeOf = async (url: string) => sharp(Buffer.from(await (await fetch(new URL(url, `${base}/`))).arrayBuffer())).metadata();
    expect((await sizeOf(g.file_url)).width).toBe(512);
    const types = await client.exportTypes();
    const jpg = types.find((t) => t.key === "equirectangular-jpg")!;
    const twoK = (await client.exportResolutions()).find((r) => r.name === "2K")!;
    let e = await client.requestExport({ skybox_id: g.obfuscated_id, type_id: jpg.id, resolution_id: twoK.id }, { model: 3 });
    while (e.status !== "complete") {
      await new Promise((r) => setTimeout(r, 100));
      e = await client.getExport(e.id);
    }
    const exported = await sizeOf(e.file_url);
    expect([exported.width, exported.height]).toEqual([2048, 1024]);
  } finally {
    await server.close();
    if (saved !== undefined) process.env.SKYBOX_API_KEY = saved;
    rmSync(root, { recursive: true, force: true });
  }
}, 60_000);
