/**
 * The playground's shipped.html with no saved folder, in Chromium against the built
 * playground: the server answers its index page for the missing skybox.json, and the page
 * says so in a whole sentence, inserted as text, followed by how to save one.
 */
import react from "@vitejs/plugin-react";
import { resolve } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { INSPECTOR_EDITORS, playgroundResolve } from "../../playground/vite-plugins.ts";
import { launchBrowser, servePages, type ServedPages } from "../browser/harness.ts";

const PLAYGROUND = resolve(import.meta.dirname, "../../playground");

let pages: ServedPages;
let browser: Browser;

beforeAll(async () => {
  pages = await servePages({ root: PLAYGROUND, plugins: [react(), playgroundResolve()], external: [INSPECTOR_EDITORS], local: false });
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await pages?.close();
});

describe("shipped.html with no saved skybox", () => {
  test("says the server answered an HTML page, not a manifest, as text, then how to save one", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${pages.url}/shipped.html`);
    const status = page.locator("#status");
    await expect.poll(() => status.textContent(), { timeout: 60_000 }).toMatch(/Save a skybox first/);
    const text = (await status.textContent())!;
    const url = `${pages.url}/skyboxes/example/skybox.json`;
    expect(text).toContain(`skybox.json (${url}) is not a skybox manifest: the server answered text/html, an HTML page, not JSON`);
    // Only the page's own markup: nothing of the message was parsed as HTML.
    const tags = await status.evaluate((el) => [...el.querySelectorAll("*")].map((e) => e.tagName.toLowerCase()));
    expect(new Set(tags)).toEqual(new Set(["span", "br", "a", "b", "code"]));
    expect(await status.locator("code").allTextContents()).toContain(
      "npx babylon-skybox save <id> --out playground/public/skyboxes/example --proxy http://localhost:5173",
    );
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);
});
