/**
 * The Skybox pane in the real Inspector, in Chromium, against the built playground and the
 * offline local Skybox service behind the proxy: generate, watch, apply (checked from
 * pixels), export, edit, batch, and errors shown in words.
 */
import react from "@vitejs/plugin-react";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { INSPECTOR_EDITORS, playgroundResolve } from "../../playground/vite-plugins.ts";
import { launchBrowser, servePages, type ServedPages } from "../browser/harness.ts";
import type { SkyboxPaneState } from "../../src/inspector/index.ts";
import { gridDifference, hasNode, luminance, openSection, sampleCanvas } from "./pane-page.ts";

const PLAYGROUND = resolve(import.meta.dirname, "../../playground");
const SCREENSHOT = join(PLAYGROUND, "screenshot-pane.png");
/** The docs' picture of a lit scene: the playground's viewport after the apply. */
const SCENE_SCREENSHOT = join(PLAYGROUND, "screenshot-scene.png");
const LONG = 90_000;
/** UI waits that need a request or two; generous, the page shares 2 cores with software WebGL. */
const UI = { timeout: 20_000 };

let pages: ServedPages;
let browser: Browser;
let page: Page;
const errors: string[] = [];

beforeAll(async () => {
  // Larger panoramas only for the README's screenshot; tests use tiny ones.
  const local = process.env.UPDATE_SCREENSHOT ? { imageScale: 1 / 4 } : {};
  pages = await servePages({ root: PLAYGROUND, plugins: [react(), playgroundResolve()], external: [INSPECTOR_EDITORS], local });
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on("pageerror", (e) => errors.push(e.message));
  // Half-resolution rendering: software WebGL would otherwise starve the page of CPU.
  await page.goto(`${pages.url}/?test&scale=2`);
  await page.getByTestId("skybox-pane").waitFor({ timeout: LONG });
  await page.getByTestId("skybox-style-2").waitFor({ timeout: LONG });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await pages?.close();
});

const byId = (id: string) => page.getByTestId(id);

/** The README's pictures of the pane and of the lit scene, at full resolution: written when missing or with UPDATE_SCREENSHOT=1. */
async function saveScreenshot(): Promise<void> {
  if (!process.env.UPDATE_SCREENSHOT && existsSync(SCREENSHOT) && existsSync(SCENE_SCREENSHOT)) return;
  const scale = (level: number) =>
    page.evaluate((l) => (window as unknown as { playground: { engine: any } }).playground.engine.setHardwareScalingLevel(l), level);
  await page.setViewportSize({ width: 1440, height: 1000 });
  await scale(1);
  // The pane from its top: style previews, prompt, and (below) the job just applied.
  await byId("skybox-pane-scroll").evaluate((el) => el.scrollTo(0, 0));
  await sampleCanvas(page);
  await page.screenshot({ path: SCREENSHOT });
  await page.screenshot({ path: SCENE_SCREENSHOT, clip: await viewportBetweenPanes() });
  await scale(2);
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** The part of the canvas the Inspector's side panes leave visible: the scene alone. */
function viewportBetweenPanes(): Promise<{ x: number; y: number; width: number; height: number }> {
  return page.evaluate(() => {
    // The outermost element under a point that is narrower than half the window: that side's pane.
    const paneAt = (x: number) => {
      let el = document.elementFromPoint(x, innerHeight / 2)!;
      while (el.parentElement && el.parentElement.getBoundingClientRect().width < innerWidth / 2) el = el.parentElement;
      return el.getBoundingClientRect();
    };
    const left = paneAt(5).right;
    const right = paneAt(innerWidth - 5).left;
    return { x: left, y: 0, width: right - left, height: innerHeight };
  });
}

describe("the Skybox pane in the Inspector", () => {
  test("generates from a prompt and a Model 4 style, shows each status, applies, and the scene changes", async () => {
    const before = await sampleCanvas(page);
    await byId("skybox-prompt").fill("alpine lake at dawn");
    await expect.poll(() => byId("skybox-prompt-counter").textContent(), UI).toBe("19 / 600");
    await byId("skybox-model-4").click();
    await byId("skybox-style-101").click();
    await expect.poll(() => byId("skybox-prompt-counter").textContent(), UI).toBe("19 / 1000");
    await expect.poll(() => byId("skybox-cost").textContent(), UI).toBe("Costs 3 credits");
    await byId("skybox-generate-button").click();
    const job = byId("skybox-job").first();
    await expect.poll(() => job.getAttribute("data-status"), { timeout: LONG }).toBe("complete");
    const statuses = (await job.getAttribute("data-statuses"))!.split(",");
    expect(statuses[0]).toBe("pending");
    expect(statuses).toContain("processing");
    expect(statuses.at(-1)).toBe("complete");

    await job.getByTestId("skybox-apply-record").click();
    const id = (await job.getAttribute("data-job"))!.split(":")[1];
    await expect.poll(() => byId("skybox-applied").getAttribute("data-applied"), { timeout: LONG }).toBe(id);
    const after = await sampleCanvas(page);
    expect(gridDifference(before, after)).toBeGreaterThan(8);
    // The tests' local service renders below full size: the pane says so, and how to get full size.
    expect(await byId("skybox-apply-background-size").textContent()).toMatch(
      /^Background at .+ size \(\d+×\d+ of Model 4's 4096×2048\), which this camera magnifies about [\d.]+×: .+SKYBOX_LOCAL_IMAGE_SCALE=1/,
    );
    await saveScreenshot();
    // The history lists it, with its thumbnail.
    await expect.poll(() => page.locator(`[data-testid=skybox-history-item][data-id="${id}"] img`).count(), { timeout: LONG }).toBe(1);
  }, 180_000);

  test("exports the applied skybox with only the options its type allows, and links the file", async () => {
    await openSection(page, "export");
    await expect.poll(() => byId("skybox-export-target").textContent(), UI).toContain("Model 4");
    await byId("skybox-export-type").click();
    const types = await page.getByRole("option").allTextContents();
    // Model 4 has no cube maps, depth map or GLB.
    expect(types).toContain("HDRI HDR");
    expect(types).not.toContain("GLB");
    expect(types.some((t) => t.startsWith("Cube Map"))).toBe(false);
    await page.getByRole("option", { name: "HDRI HDR" }).click();
    await expect(byId("skybox-export-hdri-mode").isVisible()).resolves.toBe(true);
    await byId("skybox-export-resolution").click();
    expect(await page.getByRole("option").allTextContents()).toEqual(["1K", "2K", "4K"]);
    await page.getByRole("option", { name: "1K" }).click();
    await byId("skybox-export-button").click();
    const link = byId("skybox-export-link").first();
    await link.waitFor({ timeout: LONG });
    const response = await page.request.get(new URL((await link.getAttribute("href"))!, pages.url).href);
    expect(response.status()).toBe(200);
    expect((await response.body()).subarray(0, 2).toString()).toBe("#?");
  }, 120_000);

  test("edits the applied skybox around a direction picked in the viewport, with a marker", async () => {
    await byId("skybox-mode-edit").click();
    // The middle of the canvas looks along the camera: yaw 0 (+Z, the panorama's middle), 18.4° down (beta 1.25).
    await page.mouse.click(640, 400);
    const center = byId("skybox-edit-center");
    await expect.poll(() => center.getAttribute("data-lon"), UI).not.toBe("");
    expect(Number(await center.getAttribute("data-lon"))).toBeCloseTo(0, 0);
    expect(Number(await center.getAttribute("data-lat"))).toBeCloseTo(-(90 - (1.25 * 180) / Math.PI), 0);
    expect(await hasNode(page, "skybox-edit-marker")).toBe(true);
    await byId("skybox-prompt").fill("a red hot air balloon");
    await byId("skybox-generate-button").click();
    const job = page.locator("[data-testid=skybox-job][data-status]").first();
    await expect.poll(() => job.textContent(), UI).toContain("edit");
    await expect.poll(() => job.getAttribute("data-status"), { timeout: LONG }).toBe("complete");
    await byId("skybox-mode-generate").click();
    expect(await hasNode(page, "skybox-edit-marker")).toBe(false);
  }, 120_000);

  test("a batch over the plan's cap shows the service's refusal and learns the cap; a batch of 2 runs with its counters", async () => {
    await openSection(page, "batch");
    await byId("skybox-prompt").fill("storm over the sea");
    // Model 4 Standard: 11 × 3 = 33 credits, over the business plan's 30 per batch.
    await byId("skybox-model-4").click();
    await byId("skybox-style-101").click();
    await byId("skybox-quantity").fill("11");
    await byId("skybox-quantity").blur();
    await expect.poll(() => byId("skybox-batch-cost").textContent(), UI).toContain("11 × 3 = 33 credits");
    await byId("skybox-batch-button").click();
    const refusal = byId("skybox-batch-error");
    await refusal.waitFor();
    expect(await refusal.getAttribute("data-error-kind")).toBe("plan_forbidden");
    expect(await refusal.textContent()).toContain("Requested quantity of 11 exceeds your plan limit of 30 credits per batch request.");
    await expect.poll(() => byId("skybox-batch-cost").textContent(), UI).toContain("Plan cap: 30 credits per batch");
    expect(await byId("skybox-batch-button").isDisabled()).toBe(true);

    await byId("skybox-model-3").click();
    await byId("skybox-style-2").click();
    await byId("skybox-quantity").fill("2");
    await byId("skybox-quantity").blur();
    await expect.poll(() => byId("skybox-batch-cost").textContent(), UI).toContain("2 × 1 = 2 credits");
    await byId("skybox-batch-button").click();
    const job = page.locator('[data-testid=skybox-job][data-job^="batch:"]').first();
    await expect.poll(() => job.getAttribute("data-status"), { timeout: LONG }).toBe("finalized");
    expect(await job.getByTestId("skybox-batch-counters").getAttribute("data-completed")).toBe("2");
    expect(await job.getByTestId("skybox-batch-item").count()).toBe(2);
  }, 120_000);

  test("a request the service refuses shows its message in words, and a plan refusal greys out Model 4", async () => {
    await page.route("**/skybox/api/v1/skybox", (route) =>
      route.request().method() === "POST"
        ? route.fulfill({
            status: 403,
            contentType: "application/json",
            body: JSON.stringify({ error: "Your current plan does not include Model 4 styles." }),
          })
        : route.fallback(),
    );
    try {
      await byId("skybox-model-4").click();
      await byId("skybox-style-102").click();
      await byId("skybox-generate-button").click();
      const error = byId("skybox-generate-error");
      await error.waitFor();
      expect(await error.getAttribute("data-error-kind")).toBe("plan_forbidden");
      expect(await error.textContent()).toContain("Your plan does not include this");
      expect(await error.textContent()).toContain("Your current plan does not include Model 4 styles.");
      await expect.poll(() => byId("skybox-model-4").isDisabled(), UI).toBe(true);
      await expect(byId("skybox-model4-blocked").textContent()).resolves.toContain("Your current plan does not include Model 4 styles.");
    } finally {
      await page.unroute("**/skybox/api/v1/skybox");
    }
  }, 120_000);

  test("the history finds a skybox by its prompt and deletes it after confirmation", async () => {
    await openSection(page, "history");
    await byId("skybox-history-search").fill("balloon");
    const items = byId("skybox-history-item");
    await expect.poll(() => items.count(), UI).toBe(1);
    await items.first().getByTestId("skybox-history-delete").click();
    await byId("skybox-history-delete-confirm").click();
    await expect.poll(() => byId("skybox-history-range").textContent(), UI).toBe("0–0 of 0");
    await byId("skybox-history-search").fill("");
    await expect.poll(() => items.count(), UI).toBeGreaterThan(1);
  }, 120_000);

  test("closing and reopening the Inspector keeps the pane's form, jobs and applied skybox", async () => {
    await byId("skybox-prompt").fill("keep me");
    const jobs = await byId("skybox-job").count();
    await page.evaluate(() =>
      (window as unknown as { playground: { inspector: { dispose(): Promise<void> } } }).playground.inspector.dispose(),
    );
    await expect.poll(() => byId("skybox-pane").count(), UI).toBe(0);
    await page.evaluate(() => (window as unknown as { playground: { reopen(): Promise<void> } }).playground.reopen());
    await byId("skybox-pane").waitFor();
    expect(await byId("skybox-prompt").inputValue()).toBe("keep me");
    expect(await byId("skybox-job").count()).toBe(jobs);
    expect(await byId("skybox-applied").getAttribute("data-applied")).not.toBe("");
  }, 120_000);

  test("with the Inspector open, a Model 3 skybox with its GLB backdrop applies with no console error and nothing fetched from elsewhere", async () => {
    const consoleErrors: string[] = [];
    const elsewhere: string[] = [];
    const onConsole = (m: { type(): string; text(): string }) => void (m.type() === "error" && consoleErrors.push(m.text()));
    const onRequest = (r: { url(): string }) =>
      void (/^(data|blob):/.test(r.url()) || r.url().startsWith(pages.url) || elsewhere.push(r.url()));
    page.on("console", onConsole);
    page.on("request", onRequest);
    try {
      const backdrop = await page.evaluate(async () => {
        const { pane } = (window as unknown as { playground: { pane: SkyboxPaneState } }).playground;
        pane.apply.setSettings({ backdrop: true, lighting: true, background: true });
        pane.form.set({ mode: "generate", prompt: "desert dunes at noon", styleId: 2 });
        const record = await pane.generate();
        if (!record) throw new Error(`not sent: ${pane.problems.join("; ")}`);
        await pane.applyRecord(record);
        return pane.apply.handle?.backdrop?.name ?? null;
      });
      expect(backdrop).not.toBeNull();
      expect(consoleErrors).toEqual([]);
      expect(elsewhere).toEqual([]);
      // The backdrop's own settings show with it; a change waits for the next apply (the saved backdrop is the one built).
      await openSection(page, "apply");
      expect(await byId("skybox-apply-depth-scale").count()).toBe(1);
      expect(await byId("skybox-apply-mesh-quality").count()).toBe(1);
      const changed = await page.evaluate(() => {
        const { pane } = (window as unknown as { playground: { pane: SkyboxPaneState } }).playground;
        pane.apply.setSettings({ depthScale: 6 });
        return { stale: pane.apply.value.stale, built: pane.apply.builtBackdrop };
      });
      expect(changed).toEqual({ stale: true, built: { depthScale: 3, meshQuality: "medium" } });
    } finally {
      page.off("console", onConsole);
      page.off("request", onRequest);
      await page.evaluate(() =>
        (window as unknown as { playground: { pane: SkyboxPaneState } }).playground.pane.apply.setSettings({
          backdrop: false,
          depthScale: 3,
        }),
      );
    }
  }, 180_000);

  test("the Sun light toggle: on, the next apply lights with the HDRI's sun (or says the sky has none); off, the light goes out at once", async () => {
    expect(await byId("skybox-apply-sun").count()).toBe(1);
    const on = await page.evaluate(async () => {
      const { pane } = (window as unknown as { playground: { pane: SkyboxPaneState } }).playground;
      pane.apply.setSettings({ sun: true });
      const stale = pane.apply.value.stale;
      await pane.apply.reapply();
      return { stale, why: pane.apply.value.noSun, light: pane.apply.handle?.sun?.light.isEnabled() ?? null };
    });
    expect(on.stale).toBe(true);
    // At the tests' image scale a 1K HDRI may be too coarse to show a sun: then the pane says so, and why.
    if (on.light === null) {
      await byId("skybox-apply-no-sun").waitFor({ timeout: LONG });
      expect(await byId("skybox-apply-no-sun").textContent()).toBe(`No sun added: ${on.why}.`);
    } else expect(on.light).toBe(true);
    expect(on.why === null).toBe(on.light !== null);
    const off = await page.evaluate(() => {
      const { pane } = (window as unknown as { playground: { pane: SkyboxPaneState } }).playground;
      pane.apply.setSettings({ sun: false });
      return { light: pane.apply.handle?.sun?.light.isEnabled() ?? null, stale: pane.apply.value.stale };
    });
    expect(off).toEqual({ light: on.light === null ? null : false, stale: false });
  }, 120_000);

  test("no uncaught page errors", () => {
    expect(errors).toEqual([]);
  });

  test("follows the Inspector's dark theme", async () => {
    // Measured on the light page first, then that page is closed: two software-WebGL pages would share 2 cores.
    const lightText = await luminance(byId("skybox-pane"), "color");
    await page.close();
    const dark = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      await dark.goto(`${pages.url}/?test&scale=4&theme=dark`);
      const pane = dark.getByTestId("skybox-pane");
      await pane.waitFor({ timeout: LONG });
      const [text, back] = await Promise.all([luminance(pane, "color"), luminance(pane, "background")]);
      expect(text).toBeGreaterThan(150);
      expect(back).toBeLessThan(80);
      expect(lightText).toBeLessThan(100);
    } finally {
      await dark.close();
    }
  }, 120_000);

  test("added to the app's own ShowInspector call (loadSkyboxPaneService), the pane shows and loads its styles", async () => {
    const own = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const ownErrors: string[] = [];
    own.on("pageerror", (e) => ownErrors.push(e.message));
    try {
      await own.goto(`${pages.url}/?own&scale=2`);
      // The pane is the Inspector's first side pane: shown with no click.
      await own.getByTestId("skybox-pane").waitFor({ timeout: LONG });
      await own.getByTestId("skybox-style-2").waitFor({ timeout: LONG });
      expect(ownErrors).toEqual([]);
    } finally {
      await own.close();
    }
  }, 180_000);

  test("the programmatic page generates a skybox and applies it with applySkybox, no Inspector", async () => {
    const programmatic = await browser.newPage({ viewport: { width: 640, height: 400 } });
    try {
      await programmatic.goto(`${pages.url}/programmatic.html`);
      await programmatic.waitForFunction(() => (window as unknown as { playground?: { applied?: unknown } }).playground?.applied, null, {
        timeout: LONG,
      });
      const state = await programmatic.evaluate(() => {
        const { scene, applied } = (window as unknown as { playground: { scene: any; applied: any } }).playground;
        return {
          status: applied.record.status,
          environment: scene.environmentTexture === applied.environment,
          inspector: Boolean(document.getElementById("babylon-inspector-container")),
        };
      });
      expect(state).toEqual({ status: "complete", environment: true, inspector: false });
      expect(await programmatic.textContent("#status")).toContain("Applied");
    } finally {
      await programmatic.close();
    }
  }, 120_000);
});
