/**
 * The Skybox pane at the worst moments, in Chromium against the built playground and the
 * offline local service behind the proxy: Cancel while a job is processing, Delete while that
 * skybox is being applied, Apply while another apply downloads, the Inspector closed
 * mid-download, the proxy going away and coming back; and a newcomer's first minute (a fresh
 * profile types into the prompt at once). Every test also holds the page to no console
 * error, no page error and no request leaving 127.0.0.1.
 */
import react from "@vitejs/plugin-react";
import { resolve } from "node:path";
import type { Browser, Page, Request, Route } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { INSPECTOR_EDITORS, playgroundResolve } from "../../playground/vite-plugins.ts";
import { launchBrowser, servePages, type ServedPages } from "../browser/harness.ts";
import type { Generation } from "../../src/api/index.ts";
import type { SkyboxPaneState } from "../../src/inspector/index.ts";
import { openSection } from "./pane-page.ts";

const PLAYGROUND = resolve(import.meta.dirname, "../../playground");
const LONG = 90_000;
const UI = { timeout: 20_000 };
/** Slow enough that a job shows `processing` for a few seconds (speed 50 would pass it in a blink). */
const LOCAL = { speed: 8 };

let pages: ServedPages;
let browser: Browser;
let page: Page;
/** What the page must never do: console errors, uncaught errors, requests to another host. */
const faults: string[] = [];
/** Console lines Chromium itself logs for a refused connection: expected only while the proxy is down. */
let outage = false;

function watchFaults(p: Page): void {
  const elsewhere = (url: string) => !/^(data|blob):/.test(url) && new URL(url).hostname !== "127.0.0.1";
  p.on("console", (m) => {
    if (m.type() !== "error") return;
    if (outage && /net::ERR_|WebSocket connection to .* failed/.test(m.text())) return;
    faults.push(`console: ${m.text()}`);
  });
  p.on("pageerror", (e) => faults.push(`pageerror: ${e.message}`));
  p.on("request", (r) => void (elsewhere(r.url()) && faults.push(`request: ${r.url()}`)));
  p.on("websocket", (w) => void (elsewhere(w.url()) && faults.push(`websocket: ${w.url()}`)));
}

beforeAll(async () => {
  pages = await servePages({ root: PLAYGROUND, plugins: [react(), playgroundResolve()], external: [INSPECTOR_EDITORS], local: LOCAL });
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  watchFaults(page);
  await page.goto(`${pages.url}/?scale=4`);
  await page.getByTestId("skybox-pane").waitFor({ timeout: LONG });
  await page.getByTestId("skybox-style-2").waitFor({ timeout: LONG });
}, 180_000);

afterEach(() => {
  const seen = faults.splice(0);
  expect(seen).toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  await pages?.close();
});

const byId = (id: string) => page.getByTestId(id);
const jobCard = (id: number) => page.locator(`[data-testid=skybox-job][data-job="generation:${id}"]`);

/** Generates Model 3 skyboxes from code, side by side, and waits until each is complete. */
async function completeSkyboxes<P extends string[]>(...prompts: P): Promise<{ [K in keyof P]: Generation }> {
  const records = await page.evaluate(async (prompts) => {
    const { pane } = (window as unknown as { playground: { pane: SkyboxPaneState } }).playground;
    const sent: Generation[] = [];
    for (const prompt of prompts) {
      pane.form.set({ mode: "generate", prompt, styleId: 2 });
      const record = await pane.generate();
      if (!record) throw new Error(`not sent: ${pane.problems.join("; ")}`);
      sent.push(record);
    }
    return sent;
  }, prompts);
  for (const r of records) await expect.poll(() => jobCard(r.id).getAttribute("data-status"), { timeout: LONG }).toBe("complete");
  const complete = await page.evaluate(
    (ids) => {
      const { pane } = (window as unknown as { playground: { pane: SkyboxPaneState } }).playground;
      return ids.map((id) => pane.jobs.get(`generation:${id}`)!.record!);
    },
    records.map((r) => r.id),
  );
  return complete as { [K in keyof P]: Generation };
}

/** Meshes and textures in the scene (what an apply adds, and must not leave behind). */
function sceneCounts(): Promise<{ meshes: number; textures: number }> {
  return page.evaluate(() => {
    const { scene } = (window as unknown as { playground: { scene: { meshes: unknown[]; textures: unknown[] } } }).playground;
    return { meshes: scene.meshes.length, textures: scene.textures.length };
  });
}

/** Removes the applied skybox from the scene (what stays after is what was left behind). */
function removeApplied(): Promise<void> {
  return page.evaluate(() => (window as unknown as { playground: { pane: SkyboxPaneState } }).playground.pane.apply.remove());
}

/** The pane's apply state, from the page. */
function applyValue(): Promise<{ applied: number | null; applying: number | null; error: string | null }> {
  return page.evaluate(() => {
    const { pane } = (window as unknown as { playground: { pane: SkyboxPaneState } }).playground;
    const v = pane.apply.value;
    return {
      applied: v.applied?.id ?? null,
      applying: v.applying?.id ?? null,
      error: v.error ? `${v.error.title}: ${v.error.message}` : null,
    };
  });
}

/** Starts applying a skybox from code, without waiting for it. */
function startApply(record: Generation): Promise<void> {
  return page.evaluate((record) => {
    const { pane } = (window as unknown as { playground: { pane: SkyboxPaneState } }).playground;
    void pane.applyRecord(record);
  }, record);
}

/**
 * Holds the files of `record` the page fetches through the proxy's asset passthrough until
 * `release`: its apply stays mid-download for as long as a test needs (other downloads go
 * on). `held` resolves at the first one.
 */
async function holdDownloads(record: Generation): Promise<{ held: Promise<void>; release(): Promise<void> }> {
  const folder = record.file_url.slice(0, record.file_url.lastIndexOf("/") + 1);
  const waiting: Route[] = [];
  let first!: () => void;
  const held = new Promise<void>((r) => (first = r));
  let open = false;
  const handler = async (route: Route, request: Request) => {
    if (open || request.method() !== "GET" || !request.url().includes(folder)) return route.fallback();
    waiting.push(route);
    first();
  };
  await page.route("**/skybox/assets**", handler);
  return {
    held,
    async release() {
      open = true;
      await page.unroute("**/skybox/assets**", handler);
      // A request the page aborted meanwhile cannot be continued: that is what it wanted.
      await Promise.all(waiting.map((r) => r.fallback().catch(() => undefined)));
    },
  };
}

describe("the Skybox pane at the worst moment", () => {
  test("Cancel while the job shows processing: the card says cancelled, the service stays up, the next generation completes", async () => {
    await byId("skybox-prompt").fill("alpine lake at dawn");
    await byId("skybox-style-2").click();
    await byId("skybox-generate-button").click();
    const job = byId("skybox-job").first();
    await expect.poll(() => job.getAttribute("data-status"), { timeout: LONG, interval: 100 }).toBe("processing");
    await job.getByTestId("skybox-job-cancel").click();
    await expect.poll(() => job.getAttribute("data-status"), { timeout: LONG }).toBe("abort");
    expect(await job.getByTestId("skybox-job-status").textContent()).toBe("cancelled");
    // The next generation runs while the cancelled render would have written its files (a crash of the service fails the file).
    const [next] = await completeSkyboxes("storm over the sea");
    expect(next.status).toBe("complete");
  }, 180_000);

  test("Delete from the history while that skybox is being applied: the apply stops with a sentence, nothing half-added", async () => {
    const [record] = await completeSkyboxes("desert dunes at noon");
    const before = await sceneCounts();
    const applied = (await applyValue()).applied;
    const downloads = await holdDownloads(record);
    try {
      await startApply(record);
      await downloads.held;
      await openSection(page, "history");
      const item = page.locator(`[data-testid=skybox-history-item][data-id="${record.id}"]`);
      await item.getByTestId("skybox-history-delete").click();
      await byId("skybox-history-delete-confirm").click();
      await expect.poll(() => item.count(), UI).toBe(0);
    } finally {
      await downloads.release();
    }
    await expect.poll(async () => (await applyValue()).applying, UI).toBeNull();
    const after = await applyValue();
    expect(after.applied).toBe(applied);
    expect(after.error).toContain("deleted while it was being applied");
    expect(await byId("skybox-apply-error").textContent()).toContain("deleted while it was being applied");
    // Anything the apply had started building is gone again. The pane says it stopped at once;
    // a part under way (an environment's prefilter on the GPU) is disposed when its step ends,
    // which on a loaded machine is after that.
    await expect.poll(sceneCounts, UI).toEqual(before);
  }, 180_000);

  test("Apply while another apply downloads: the later one wins, the earlier one's parts are disposed, no mesh or texture leaks", async () => {
    const [first, later] = await completeSkyboxes("a quiet forest clearing", "neon city at night");
    await removeApplied();
    const empty = await sceneCounts();

    const downloads = await holdDownloads(first);
    try {
      await startApply(first);
      await downloads.held;
      await page.evaluate((r) => (window as unknown as { playground: { pane: SkyboxPaneState } }).playground.pane.applyRecord(r), later);
    } finally {
      await downloads.release();
    }
    await page.waitForTimeout(1000);
    expect(await applyValue()).toEqual({ applied: later.id, applying: null, error: null });
    // With the winner removed too, the scene is as it was with nothing applied: nothing of the first stayed.
    // The winner's cache bake lets go of its view of the environment when it stops, at the next face
    // it reads back (background-bakes.ts): on a loaded machine that is after the removal returns.
    await removeApplied();
    await expect.poll(sceneCounts, UI).toEqual(empty);
  }, 180_000);

  test("closing the Inspector mid-download: no error, nothing leaks, and reopening shows the skybox applied", async () => {
    const [record] = await completeSkyboxes("snowy mountain pass");
    await removeApplied();
    const empty = await sceneCounts();
    const downloads = await holdDownloads(record);
    try {
      await startApply(record);
      await downloads.held;
      await page.evaluate(() =>
        (window as unknown as { playground: { inspector: { dispose(): Promise<void> } } }).playground.inspector.dispose(),
      );
      await expect.poll(() => byId("skybox-pane").count(), UI).toBe(0);
    } finally {
      await downloads.release();
    }
    // The pane's state outlives the Inspector: the apply completes in the scene.
    await expect.poll(async () => (await applyValue()).applying, { timeout: LONG }).toBeNull();
    expect(await applyValue()).toEqual({ applied: record.id, applying: null, error: null });
    await page.evaluate(() => (window as unknown as { playground: { reopen(): Promise<void> } }).playground.reopen());
    await byId("skybox-pane").waitFor(UI);
    await expect.poll(() => byId("skybox-applied").getAttribute("data-applied"), UI).toBe(String(record.id));
    await removeApplied();
    expect(await sceneCounts()).toEqual(empty);
  }, 180_000);

  test("the proxy going away and coming back: the pane says so, stops the job's clock, then follows the job again, pushed live", async () => {
    await byId("skybox-prompt").fill("harbour in the fog");
    await byId("skybox-generate-button").click();
    const job = byId("skybox-job").first();
    await expect.poll(() => job.getAttribute("data-status"), { timeout: LONG, interval: 100 }).toMatch(/^(pending|dispatched|processing)$/);
    const connection = byId("skybox-connection");
    expect(await connection.getAttribute("data-state")).toBe("push");

    outage = true;
    await pages.stop();
    await expect.poll(() => connection.getAttribute("data-state"), UI).toBe("lost");
    expect(await connection.textContent()).toContain("The proxy cannot be reached");
    await job.getByTestId("skybox-job-lost").waitFor(UI);
    expect(await job.locator("[role=progressbar]").count()).toBe(0);
    const clock = await job.textContent();
    // Meanwhile the history cannot load: it says so, and loads again once the proxy is back.
    const historyError = () =>
      page.evaluate(
        () => (window as unknown as { playground: { pane: SkyboxPaneState } }).playground.pane.history.value.error?.title ?? null,
      );
    await page.evaluate(() => (window as unknown as { playground: { pane: SkyboxPaneState } }).playground.pane.history.refresh());
    expect(await historyError()).toBe("History could not be loaded");
    await page.waitForTimeout(2500);
    expect(await job.textContent()).toBe(clock);

    await pages.start();
    // Pushed live again: the restarted local service's push channel is on another port, with another key.
    await expect.poll(() => connection.getAttribute("data-state"), UI).toBe("push");
    outage = false;
    expect(await job.getByTestId("skybox-job-lost").count()).toBe(0);
    await expect.poll(historyError, UI).toBeNull();
    // Followed again: the job reaches an end (the restarted service resumes it).
    await expect.poll(() => job.getAttribute("data-status"), { timeout: LONG }).toMatch(/^(complete|error)$/);
    const [next] = await completeSkyboxes("after the outage");
    expect(next.status).toBe("complete");
  }, 180_000);
});

describe("a newcomer's first minute", () => {
  test("a fresh profile's first load: the prompt takes what is typed, every key of it", async () => {
    // The main page is closed first: two software-WebGL pages would share 2 cores.
    await page.close();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const fresh = await context.newPage();
      watchFaults(fresh);
      await fresh.goto(`${pages.url}/?scale=4`);
      const prompt = fresh.getByTestId("skybox-prompt");
      await prompt.waitFor({ timeout: LONG });
      await fresh.getByTestId("skybox-style-2").waitFor({ timeout: LONG });
      await prompt.click();
      await fresh.keyboard.type("alpine lake", { delay: 120 });
      expect(await prompt.inputValue()).toBe("alpine lake");
    } finally {
      await context.close();
    }
  }, 120_000);
});
