/**
 * The calls the smoothness test and bench time while a scene renders (test/browser/pages/
 * smooth-page.ts): a cold apply of a Model 3 skybox without and with the sun, re-applies of it
 * from memory and from IndexedDB, a cold Model 4, and `loadSkybox` of a folder `babylon-skybox
 * save` wrote, from a plain static server. One page and one browser for all of them.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { createSkyboxClient, type Generation, type SkyboxClient } from "../../src/api/index.ts";
import { runSaveCommand } from "../../src/cli/save-command.ts";
import type { LocalServiceOptions } from "../../src/local/service-options.ts";
import { launchBrowser, servePages, type ServedPages } from "../browser/harness.ts";
import type { SmoothMode, SmoothOptions, SmoothRun } from "../browser/pages/smooth-page.ts";
import { startStaticServer, type StaticServer } from "../helpers/static-server.ts";
import { complete, generate } from "./scene-fixture.ts";

/** One timed call. */
export interface SmoothCall {
  name: string;
  run: SmoothRun;
}

/** What the calls share: the sizes of the skyboxes and of their lighting. */
export interface SmoothSizes {
  local: LocalServiceOptions;
  options: SmoothOptions;
}

export interface SmoothScenario {
  page: Page;
  pageErrors: string[];
  /** Runs every call in order (each after the previous one's `whenCached` plus a second). */
  runAll(): Promise<SmoothCall[]>;
  close(): Promise<void>;
}

export async function openSmoothScenario(sizes: SmoothSizes, watchCalls = false): Promise<SmoothScenario> {
  // The save command and the page share one client address: no rate limit between them.
  const pages: ServedPages = await servePages({
    root: join(import.meta.dirname, "../browser/pages"),
    local: sizes.local,
    proxy: { rateLimit: false },
  });
  const skyboxes = mkdtempSync(join(tmpdir(), "skybox-smooth-"));
  let files: StaticServer | null = null;
  let browser: Browser | null = null;
  const close = async () => {
    await browser?.close();
    await files?.close();
    await pages.close();
    rmSync(skyboxes, { recursive: true, force: true });
  };
  try {
    const client = createSkyboxClient({ baseUrl: `${pages.url}/skybox` });
    const pending = await Promise.all([generate(client, "clear desert at noon", 3, 11), generate(client, "mountain lake at dawn", 4)]);
    const [m3, m4] = (await Promise.all(pending.map((g) => completeSlowly(client, g.id)))) as [Generation, Generation];
    await runSaveCommand([String(m3.id), "--out", join(skyboxes, "desert"), "--proxy", pages.url, "--quiet"], {}, () => undefined);
    files = await startStaticServer({ "/skyboxes/": skyboxes }, { cors: true });
    browser = await launchBrowser();
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (e) => pageErrors.push(e.message));
    page.on("console", (m) => void (m.type() === "error" && pageErrors.push(m.text())));
    await page.goto(`${pages.url}/smooth.html${watchCalls ? "?watch" : ""}`);
    await page.waitForFunction(() => Boolean(window.skyboxSmooth));
    await page.evaluate(() => window.skyboxSmooth.setup());
    const measure = async (target: number | string, extra: SmoothOptions, mode: SmoothMode): Promise<SmoothRun> => {
      // Options cross into the page as plain JSON.
      const options = JSON.parse(JSON.stringify({ ...sizes.options, ...extra })) as Record<string, unknown>;
      const run: unknown = await page.evaluate(([t, o, m]) => window.skyboxSmooth.measure(t, o as SmoothOptions, m), [
        target,
        options,
        mode,
      ] as const);
      return run as SmoothRun;
    };
    const shipped = `${files.url}/skyboxes/desert/skybox.json`;
    return {
      page,
      pageErrors,
      async runAll() {
        const calls: [string, () => Promise<SmoothRun>][] = [
          ["cold Model 3 apply", () => measure(m3.id, {}, "cold")],
          ["cold Model 3 apply with the sun", () => measure(m3.id, { sun: true }, "cold")],
          ["re-apply of it from memory", () => measure(m3.id, { sun: true }, "memory")],
          ["re-apply of it from IndexedDB (memory cleared)", () => measure(m3.id, { sun: true }, "indexeddb")],
          ["cold Model 4 apply", () => measure(m4.id, {}, "cold")],
          ["loadSkybox of a shipped .hdr folder, nothing cached", () => measure(shipped, {}, "cold")],
        ];
        const out: SmoothCall[] = [];
        for (const [name, run] of calls) out.push({ name, run: await run() });
        await page.evaluate(() => window.skyboxSmooth.dispose());
        return out;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** `complete`, given longer: larger images on a loaded machine take more than its 30 s. */
async function completeSlowly(client: SkyboxClient, id: number, tries = 6): Promise<Generation> {
  for (let i = 1; ; i++) {
    try {
      return await complete(client, id);
    } catch (error) {
      if (i === tries || !String(error).includes("did not complete")) throw error;
    }
  }
}
