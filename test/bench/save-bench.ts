/**
 * Save to project as a user meets it: `npm run dev`'s server (the Vite plugin with its
 * default local service) on the playground, a 1440 x 1000 Chromium window rendering the scene
 * at full resolution and at half (`?scale=2`), one skybox generated and applied with the
 * pane's defaults, then Save to project clicked: the time until the pane names the folder,
 * and how long each step it shows lasted.
 */
import react from "@vitejs/plugin-react";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createServer } from "vite";
import { playgroundResolve } from "../../playground/vite-plugins.ts";
import { skyboxProxy } from "../../src/dev-server/vite-plugin.ts";
import { launchBrowser } from "../browser/harness.ts";

const PLAYGROUND = resolve(import.meta.dirname, "../../playground");
const LONG = { timeout: 400_000 };

export async function saveBench(): Promise<string[]> {
  const dataDir = mkdtempSync(join(tmpdir(), "skybox-save-bench-"));
  const saved = process.env.SKYBOX_API_KEY;
  delete process.env.SKYBOX_API_KEY;
  const server = await createServer({
    root: PLAYGROUND,
    configFile: false,
    logLevel: "warn",
    server: { host: "127.0.0.1", port: 0 },
    plugins: [react(), playgroundResolve(), skyboxProxy({ local: { dataDir } })],
  });
  await server.listen();
  const browser = await launchBrowser();
  const lines: string[] = [];
  try {
    for (const scale of [1, 2]) lines.push(await timeSave(browser, server.resolvedUrls!.local[0]!, scale));
  } finally {
    await browser.close();
    await server.close();
    rmSync(join(PLAYGROUND, "public", "skyboxes"), { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
    if (saved !== undefined) process.env.SKYBOX_API_KEY = saved;
  }
  return lines;
}

async function timeSave(browser: Awaited<ReturnType<typeof launchBrowser>>, url: string, scale: number): Promise<string> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  try {
    // The first visit waits for Vite to optimise the dependencies.
    await page.goto(`${url}?scale=${scale}`, { waitUntil: "commit" });
    const byId = (id: string) => page.getByTestId(id);
    await byId("skybox-style-2").waitFor(LONG);
    await byId("skybox-prompt").fill(`alpine lake at sunset ${scale}`);
    await byId("skybox-generate-button").click();
    const job = byId("skybox-job").first();
    await page.waitForFunction(
      () => document.querySelector("[data-testid=skybox-job]")?.getAttribute("data-status") === "complete",
      null,
      LONG,
    );
    await job.getByTestId("skybox-apply-record").click();
    await page.waitForFunction(
      () => Boolean(document.querySelector("[data-testid=skybox-applied]")?.getAttribute("data-applied")),
      null,
      LONG,
    );
    await page.evaluate(() => {
      const started = performance.now();
      const first = new Map<string, number>();
      (window as unknown as { saveTimes: Map<string, number> }).saveTimes = first;
      new MutationObserver(() =>
        document.querySelectorAll("[data-testid=skybox-save-step]").forEach((el) => {
          const key = `${(el as HTMLElement).dataset.stage} ${(el as HTMLElement).dataset.label}`;
          if (!first.has(key)) first.set(key, performance.now() - started);
        }),
      ).observe(document.body, { subtree: true, childList: true, attributes: true });
      (window as unknown as { saveStarted: number }).saveStarted = started;
    });
    await byId("skybox-save-button").scrollIntoViewIfNeeded();
    await byId("skybox-save-button").click();
    await byId("skybox-saved").waitFor(LONG);
    const { total, steps } = await page.evaluate(() => {
      const w = window as unknown as { saveTimes: Map<string, number>; saveStarted: number };
      return { total: performance.now() - w.saveStarted, steps: [...w.saveTimes] };
    });
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const starts = steps.map(([name, at]) => `${name} from ${s(at)}`).join(", ");
    return `Save to project, canvas at ${scale === 1 ? "full" : "half"} resolution (1440 x 1000 window): ${s(total)} until the folder is named (steps: ${starts})`;
  } finally {
    await page.close();
  }
}
