/**
 * The playground's `?engine=webgpu`: the showcase scene on a WebGPUEngine (WebGPU on
 * SwiftShader's Vulkan in Chromium) with the Skybox pane; a skybox generated and applied from
 * the pane changes the scene. No GPU validation error, no console error, no request leaving
 * 127.0.0.1 (every other one is refused and listed: a shader compiler from a CDN would be one).
 */
import react from "@vitejs/plugin-react";
import { resolve } from "node:path";
import type { AbstractEngine } from "@babylonjs/core/Engines/abstractEngine.js";
import type { Scene } from "@babylonjs/core/scene.js";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { INSPECTOR_EDITORS, playgroundResolve } from "../../playground/vite-plugins.ts";
import { launchBrowser, servePages, WEBGPU_ARGS, type ServedPages } from "../browser/harness.ts";
import type { SkyboxPaneState } from "../../src/inspector/index.ts";
import { gridDifference, type PixelGrid } from "./pane-page.ts";

const PLAYGROUND = resolve(import.meta.dirname, "../../playground");
const LONG = 90_000;

let pages: ServedPages;
let browser: Browser;
let page: Page;
const errors: string[] = [];
const gpuErrors: string[] = [];
const external: string[] = [];

beforeAll(async () => {
  pages = await servePages({ root: PLAYGROUND, plugins: [react(), playgroundResolve()], external: [INSPECTOR_EDITORS] });
  browser = await launchBrowser({ args: WEBGPU_ARGS });
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.route(
    (url) => url.protocol.startsWith("http") && url.hostname !== "127.0.0.1",
    (route) => {
      external.push(route.request().url());
      return route.abort("blockedbyclient");
    },
  );
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
    if (/uncaptured error|GPUValidationError/i.test(m.text())) gpuErrors.push(m.text());
  });
  await page.goto(`${pages.url}/?scale=2&engine=webgpu`);
  await page.getByTestId("skybox-pane").waitFor({ timeout: LONG });
  await page.getByTestId("skybox-style-2").waitFor({ timeout: LONG });
}, 180_000);

/**
 * The canvas's mean colours on a grid, read at the end of a frame of the render loop: WebGPU's
 * swap-chain texture exists only in the task that drew it (pane-page.ts renders outside the loop).
 */
function sampleFrame(cols = 8, rows = 6): Promise<PixelGrid> {
  return page.evaluate(
    async ({ cols, rows }) => {
      const { engine, scene } = (window as unknown as { playground: { engine: AbstractEngine; scene: Scene } }).playground;
      await scene.whenReadyAsync();
      return new Promise<PixelGrid>((done) => {
        engine.onEndFrameObservable.addOnce(() => {
          const w = engine.getRenderWidth();
          const h = engine.getRenderHeight();
          void engine.readPixels(0, 0, w, h).then((data) => {
            const px = data as Uint8Array;
            const grid: number[][] = [];
            for (let gy = 0; gy < rows; gy++)
              for (let gx = 0; gx < cols; gx++) {
                const sum = [0, 0, 0];
                let n = 0;
                for (let y = Math.floor((gy * h) / rows); y < Math.floor(((gy + 1) * h) / rows); y += 4)
                  for (let x = Math.floor((gx * w) / cols); x < Math.floor(((gx + 1) * w) / cols); x += 4, n++)
                    for (let c = 0; c < 3; c++) sum[c]! += px[(y * w + x) * 4 + c]!;
                grid.push(sum.map((v) => v / Math.max(1, n)));
              }
            done(grid);
          });
        });
      });
    },
    { cols, rows },
  );
}

afterAll(async () => {
  await browser?.close();
  await pages?.close();
});

describe("the playground on WebGPU", () => {
  test(
    "runs a WebGPUEngine with the pane, and a skybox applied from the pane changes the scene",
    async () => {
      expect(
        await page.evaluate(() => (window as unknown as { playground: { engine: { isWebGPU: boolean } } }).playground.engine.isWebGPU),
      ).toBe(true);
      const before = await sampleFrame();
      const applied = await page.evaluate(async () => {
        const pane = (window as unknown as { playground: { pane: SkyboxPaneState } }).playground.pane;
        pane.apply.setSettings({ lighting: true, background: true, backdrop: false });
        pane.form.set({ mode: "generate", prompt: "desert dunes at noon", styleId: 2 });
        const record = await pane.generate();
        if (!record) throw new Error(`not sent: ${pane.problems.join("; ")}`);
        await pane.applyRecord(record);
        return pane.apply.handle?.environment?.getClassName() ?? null;
      });
      expect(applied).not.toBeNull();
      expect(gridDifference(before, await sampleFrame())).toBeGreaterThan(10);
    },
    LONG,
  );

  test("no GPU validation error, no console error, no request leaving 127.0.0.1", () => {
    expect(gpuErrors).toEqual([]);
    expect(errors).toEqual([]);
    expect(external).toEqual([]);
  });
});
