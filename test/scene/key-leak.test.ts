/**
 * The API key and secret reach no browser-visible byte: a whole browser session through
 * the proxy (pages, bundles, API answers, assets, events) and the service's log are
 * searched for a known key.
 */
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Browser, Page, Response } from "playwright-core";
import { createSkyboxClient } from "../../src/api/index.ts";
import { launchBrowser, servePages, type ServedPages } from "../browser/harness.ts";
import { complete, generate } from "./scene-fixture.ts";

const KEY = "sk-canary-key-4f1c9e2b7a";
const SECRET = "canary-secret-8d3e6a0f51";

let pages: ServedPages;
let browser: Browser;
let page: Page;
const seen: { url: string; bytes: Buffer }[] = [];
const consoleLines: string[] = [];
/** Reads of responses in flight; never left to reject. */
const reads: Promise<void>[] = [];
/** Waits for the reads in flight, at most `ms` (a streamed response's read never ends). */
const settle = (ms: number) => Promise.race([Promise.all(reads), new Promise((r) => setTimeout(r, ms))]);

async function record(r: Response): Promise<void> {
  try {
    const all = await r.allHeaders();
    const headers = Object.entries(all)
      .map(([k, v]) => `${k}: ${v}`)
      .join("\n");
    // An event stream never ends, so its body cannot be read here (the proxy's tests search
    // the relay's bytes); its headers are still searched.
    const streaming = (all["content-type"] ?? "").includes("text/event-stream");
    const body = streaming ? Buffer.alloc(0) : await r.body().catch(() => Buffer.alloc(0));
    seen.push({ url: r.url(), bytes: Buffer.concat([Buffer.from(`${r.status()} ${headers}\n`), body]) });
  } catch {
    // The page went away mid-read (only at teardown): nothing left to search.
  }
}

beforeAll(async () => {
  pages = await servePages({ root: join(import.meta.dirname, "../browser/pages"), local: { apiKey: KEY, apiSecret: SECRET } });
  browser = await launchBrowser();
  page = await browser.newPage();
  page.on("console", (m) => consoleLines.push(m.text()));
  page.on("response", (r) => void reads.push(record(r)));
});
afterAll(async () => {
  page?.removeAllListeners("response");
  await settle(2000);
  await browser?.close();
  await pages?.close();
});

test("no response, header, bundle, console line or log line holds the key or the secret", async () => {
  await page.goto(`${pages.url}/scene.html`);
  await page.waitForFunction(() => window.skyboxTestReady === true);
  await page.evaluate(() => window.skyboxTest.setup({}));
  const client = createSkyboxClient({ baseUrl: `${pages.url}/skybox` });
  const record = await complete(client, (await generate(client, "canary lake at dawn")).id);
  await page.evaluate((id) => window.skyboxTest.apply(id, { backdrop: true }), record.id);
  // An error answer too: the proxy's 404 and an upstream refusal.
  await page.evaluate(async () => {
    await fetch("/skybox/api/v1/skybox/batch/999999");
    await fetch("/skybox/api/v1/skybox", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    await fetch("/skybox/config");
  });
  await page.waitForLoadState("networkidle");
  await settle(5000);

  const kinds = new Set(seen.map((s) => new URL(s.url).pathname.split("/")[2] ?? s.url.split(".").pop()));
  expect(seen.some((s) => s.url.endsWith(".js"))).toBe(true); // the bundle was searched
  expect(seen.some((s) => s.url.includes("/skybox/assets/"))).toBe(true); // so were the assets
  expect(kinds.size).toBeGreaterThan(2);
  for (const s of seen) {
    expect(s.bytes.includes(KEY), `key in ${s.url}`).toBe(false);
    expect(s.bytes.includes(SECRET), `secret in ${s.url}`).toBe(false);
  }
  expect(consoleLines.join("\n")).not.toContain(KEY);
  expect(pages.localLog.join("\n")).not.toContain(KEY);
});
