/**
 * The Skybox pane as a new user meets it, in Chromium against the built playground, at the two
 * window sizes the docs are judged at: the pane scrolls (its content is taller than the
 * window) with the mouse wheel and the keyboard, focus moving inside the pane leaves its top
 * reachable, a job's progress shows where Generate was clicked, and a cancelled job is
 * listed in History at once with nothing to export or remix.
 */
import react from "@vitejs/plugin-react";
import { resolve } from "node:path";
import { PNG } from "pngjs";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { INSPECTOR_EDITORS, playgroundResolve } from "../../playground/vite-plugins.ts";
import { launchBrowser, servePages, type ServedPages } from "../browser/harness.ts";

const PLAYGROUND = resolve(import.meta.dirname, "../../playground");
const LONG = 90_000;
const UI = { timeout: 20_000 };
/** Exploratory pictures (looked at by hand), never in the repository. */
const SHOTS = process.env.PANE_SHOTS ?? null;
/** The service's real pace: a job stays pending or processing for many seconds. */
const LOCAL = { speed: 1 };

let pages: ServedPages;
let browser: Browser;
const errors: string[] = [];

beforeAll(async () => {
  pages = await servePages({ root: PLAYGROUND, plugins: [react(), playgroundResolve()], external: [INSPECTOR_EDITORS], local: LOCAL });
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await pages?.close();
});

interface Box {
  top: number;
  bottom: number;
}

/** The part of an element the window shows, vertically. */
async function boxOf(element: Locator): Promise<Box> {
  const b = (await element.boundingBox())!;
  return { top: b.y, bottom: b.y + b.height };
}

/** Mean absolute difference (0..255) between two PNG screenshots of the same size. */
function pixelDifference(a: Buffer, b: Buffer): number {
  const pa = PNG.sync.read(a).data;
  const pb = PNG.sync.read(b).data;
  let total = 0;
  for (let i = 0; i < pa.length; i += 4)
    total += Math.abs(pa[i]! - pb[i]!) + Math.abs(pa[i + 1]! - pb[i + 1]!) + Math.abs(pa[i + 2]! - pb[i + 2]!);
  return total / ((pa.length / 4) * 3);
}

async function openPlayground(width: number, height: number): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height } });
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${pages.url}/?scale=4`);
  await page.getByTestId("skybox-pane").waitFor({ timeout: LONG });
  await page.getByTestId("skybox-style-2").waitFor({ timeout: LONG });
  return page;
}

/**
 * The element that clips the pane's content: the first of the pane's children, the pane and
 * its ancestors whose content is taller than its box. It should scroll; marked for locators.
 */
async function scrollContainer(page: Page): Promise<Locator> {
  await page.getByTestId("skybox-pane").evaluate((pane) => {
    const candidates = [...pane.children, pane];
    for (let n = pane.parentElement; n; n = n.parentElement) candidates.push(n);
    const clipping = candidates.find((el) => el.scrollHeight > el.clientHeight + 1);
    clipping?.setAttribute("data-pane-scroller", "");
  });
  return page.locator("[data-pane-scroller]");
}

const scrollTop = (scroller: Locator) => scroller.evaluate((el) => el.scrollTop);

/** scrollTop of every ancestor of `element`: focus must not leave any of them scrolled. */
const ancestorScrolls = (element: Locator) =>
  element.evaluate((el) => {
    const out: number[] = [];
    for (let n = el.parentElement; n; n = n.parentElement) out.push(n.scrollTop);
    return out;
  });

describe.each([
  [1440, 1000],
  [1280, 720],
])("the Skybox pane at %ix%i", (width, height) => {
  let page: Page;
  let scroller: Locator;
  // After a pause: software raster paints a scrolled pane over a few frames.
  const shot = async (name: string) =>
    SHOTS && (await page.waitForTimeout(1000), await page.screenshot({ path: `${SHOTS}/${width}x${height}-${name}.png` }));
  beforeAll(async () => {
    page = await openPlayground(width, height);
    scroller = await scrollContainer(page);
    await shot("opened");
  }, 180_000);
  afterAll(() => page?.close());

  test("its content is taller than the window, and the wheel over it scrolls it", async () => {
    const size = await scroller.evaluate((el) => ({ scrollHeight: el.scrollHeight, clientHeight: el.clientHeight }));
    expect(size.scrollHeight).toBeGreaterThan(size.clientHeight + 100);
    const box = await boxOf(scroller);
    // The scroll container fits in the window: nothing of it is clipped below the fold.
    expect(box.bottom).toBeLessThanOrEqual(height);
    const bounds = (await scroller.boundingBox())!;
    const bottom = { x: bounds.x, y: box.bottom - 160, width: bounds.width, height: 160 };
    const before = await page.screenshot({ clip: bottom });
    await page.mouse.move(bounds.x + bounds.width / 2, box.bottom - 80);
    await page.mouse.wheel(0, 600);
    await expect.poll(() => scrollTop(scroller), UI).toBeGreaterThan(0);
    await page.waitForTimeout(300); // Chromium's smooth wheel scroll settles
    const after = await page.screenshot({ clip: bottom });
    await shot("wheel");
    expect(pixelDifference(before, after)).toBeGreaterThan(3);
    // Wheeling on reaches the last section, whose header then shows inside the pane.
    for (let i = 0; i < 20; i++) await page.mouse.wheel(0, 400);
    const exportHeader = page.getByTestId("skybox-section-export").locator("button").first();
    await expect.poll(async () => (await boxOf(exportHeader)).bottom <= box.bottom, UI).toBe(true);
    // And back up to the top.
    for (let i = 0; i < 25; i++) await page.mouse.wheel(0, -400);
    await expect.poll(() => scrollTop(scroller), UI).toBe(0);
  }, 120_000);

  test("the keyboard scrolls it (Page Down, Tab into lower sections), and its top stays reachable", async () => {
    await scroller.evaluate((el) => el.scrollTo(0, 0));
    await scroller.focus();
    await page.keyboard.press("PageDown");
    await expect.poll(() => scrollTop(scroller), UI).toBeGreaterThan(0);
    await page.keyboard.press("Home");
    await expect.poll(() => scrollTop(scroller), UI).toBe(0);
    // Tab until the focus is in the History section, far below the fold.
    const inHistory = () => page.evaluate(() => Boolean(document.activeElement?.closest("[data-testid=skybox-section-history]")));
    for (let i = 0; i < 150 && !(await inHistory()); i++) await page.keyboard.press("Tab");
    expect(await inHistory()).toBe(true);
    const focused = page.locator(":focus");
    const box = await boxOf(scroller);
    const f = await boxOf(focused);
    expect(f.top).toBeGreaterThanOrEqual(box.top - 1);
    expect(f.bottom).toBeLessThanOrEqual(box.bottom + 1);
    expect(await scrollTop(scroller)).toBeGreaterThan(0);
    await shot("tabbed");
    // Only the pane's own scroller moved: no clipping ancestor is left scrolled, so the
    // pane's top line stays under its header and the wheel brings its first section back.
    expect((await ancestorScrolls(scroller)).every((t) => t === 0)).toBe(true);
    const upstream = await boxOf(page.getByTestId("skybox-upstream"));
    expect(upstream.top).toBeGreaterThanOrEqual(0);
    expect(upstream.bottom).toBeLessThanOrEqual(box.top + 1);
    const bounds = (await scroller.boundingBox())!;
    await page.mouse.move(bounds.x + bounds.width / 2, bounds.y + bounds.height / 2);
    for (let i = 0; i < 25; i++) await page.mouse.wheel(0, -400);
    await expect.poll(() => scrollTop(scroller), UI).toBe(0);
    const generateHeader = await boxOf(page.getByTestId("skybox-section-generate").locator("button").first());
    expect(generateHeader.top).toBeGreaterThanOrEqual(box.top - 1);
  }, 120_000);

  test("after Generate, the running job's progress shows inside the pane; cancelled, History lists it with nothing to export or remix", async () => {
    await page.getByTestId("skybox-prompt").fill(`a storm over the sea at ${width}`);
    await page.getByTestId("skybox-generate-button").click();
    const running = page.locator("[data-job]:not([data-status=complete]):not([data-status=abort]):not([data-status=error])").first();
    await running.waitFor(UI);
    const key = (await running.getAttribute("data-job"))!;
    const id = key.split(":")[1];
    // Some card of that job (with its progress bar) lies inside the pane's visible part.
    const visible = async () => {
      const pane = await boxOf(scroller);
      for (const card of await page.locator(`[data-job="${key}"]`).all()) {
        if (!(await card.isVisible())) continue;
        const bar = card.getByRole("progressbar");
        if (!(await bar.count())) continue;
        const c = await boxOf(card);
        const b = await boxOf(bar);
        if (c.top >= pane.top - 1 && b.bottom <= pane.bottom + 1) return true;
      }
      return false;
    };
    await expect.poll(visible, UI).toBe(true);
    await shot("generating");

    const cancel = page.locator(`[data-job="${key}"]`).first().getByTestId("skybox-job-cancel");
    await cancel.click();
    const item = page.locator(`[data-testid=skybox-history-item][data-id="${id}"]`);
    await expect.poll(() => item.getAttribute("data-status"), UI).toBe("abort");
    expect(await item.getByTestId("skybox-history-export").count()).toBe(0);
    expect(await item.getByTestId("skybox-history-remix").count()).toBe(0);
    await item.scrollIntoViewIfNeeded();
    await shot("cancelled");
    expect(errors).toEqual([]);
  }, 120_000);
});
