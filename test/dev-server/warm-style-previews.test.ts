/**
 * The dev server's local service has every style preview rendered before any page asks for
 * one: on a fresh data directory the pane's style cards then show their pictures as soon as
 * the pane does, instead of waiting seconds for previews rendered on the first request.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createServer, type ViteDevServer } from "vite";
import skyboxProxy from "../../src/dev-server/vite-plugin.ts";
import { stylesOf } from "../../src/local/catalogue/style-json.ts";

let root: string;
let dataDir: string;
let server: ViteDevServer;
let savedKey: string | undefined;

beforeAll(async () => {
  savedKey = process.env.SKYBOX_API_KEY;
  delete process.env.SKYBOX_API_KEY;
  root = mkdtempSync(join(tmpdir(), "skybox-warm-"));
  dataDir = join(root, "data");
  writeFileSync(join(root, "index.html"), "<!doctype html><title>app</title>");
  server = await createServer({
    logLevel: "silent",
    configFile: false,
    root,
    server: { port: 0, host: "127.0.0.1" },
    plugins: [skyboxProxy({ local: { dataDir, speed: 50, imageScale: 1 / 16, log: () => {} } })],
  });
  await server.listen();
});

afterAll(async () => {
  await server?.close();
  if (savedKey !== undefined) process.env.SKYBOX_API_KEY = savedKey;
  rmSync(root, { recursive: true, force: true });
});

describe("the dev server's local service", () => {
  test("renders every style's preview of both menus with no page asking", async () => {
    const files = stylesOf(null).map((s) => join(dataDir, "styles", `${s.id}.jpg`));
    expect(files.length).toBeGreaterThan(8);
    await expect.poll(() => files.filter((f) => existsSync(f)).length, { timeout: 150_000, interval: 500 }).toBe(files.length);
  }, 180_000);
});
