/**
 * What the playground shows once a sunny skybox is applied from the pane at its defaults, in
 * Chromium (SwiftShader WebGL2), judged from the canvas's pixels: one sun (the skybox's, in
 * place of the playground's own light), one shadow under each object, falling on the
 * picture's own ground, and that ground staying under the objects as the camera orbits.
 *
 * Ground points are projected through the camera to the canvas (rows from the bottom, as
 * `readPixels` gives them). SHOTS=dir saves the canvas at each step, for a person to look at.
 */
import react from "@vitejs/plugin-react";
import { resolve } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { INSPECTOR_EDITORS, playgroundResolve } from "../../playground/vite-plugins.ts";
import { createSkyboxClient, type Generation, type SkyboxClient } from "../../src/api/index.ts";
import { launchBrowser, servePages, type ServedPages } from "../browser/harness.ts";
import { generate } from "../scene/scene-fixture.ts";

const PLAYGROUND = resolve(import.meta.dirname, "../../playground");
const LONG = 90_000;

let pages: ServedPages;
let browser: Browser;
let page: Page;
let sunny: Generation;
const errors: string[] = [];

beforeAll(async () => {
  // Panoramas at a quarter of their size: the picture's ground has detail to follow.
  pages = await servePages({
    root: PLAYGROUND,
    plugins: [react(), playgroundResolve()],
    external: [INSPECTOR_EDITORS],
    local: { imageScale: 1 / 4 },
  });
  const client = createSkyboxClient({ baseUrl: `${pages.url}/skybox` });
  // An afternoon sun (28 to 40 degrees up): each sphere's shadow reaches out of its foot, short of its neighbours'.
  const generation = generate(client, "clear rocky desert in the afternoon", 3, 3).then((g) => completed(client, g.id));
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => void (m.type() === "error" && errors.push(m.text())));
  await page.goto(`${pages.url}/?scale=2`);
  await page.getByTestId("skybox-pane").waitFor({ timeout: LONG });
  sunny = await generation;
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await pages?.close();
});

/** Waits for a generation (rendered at a quarter of its size while the page loads: longer than scene-fixture's wait). */
async function completed(client: SkyboxClient, id: number): Promise<Generation> {
  for (let i = 0; i < 600; i++) {
    const record = await client.getGeneration(id);
    if (record.status === "complete") return record;
    if (record.status === "error" || record.status === "abort") throw new Error(`generation ${id} ended ${record.status}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`generation ${id} did not complete`);
}

/** Renders a frame and reads the colour (mean of 3x3 pixels) at each world point. */
function colours(points: number[][]): Promise<number[][]> {
  return page.evaluate(async (pts) => {
    const { engine, scene } = (window as any).playground;
    await scene.whenReadyAsync();
    scene.render();
    const w = engine.getRenderWidth();
    const h = engine.getRenderHeight();
    const px = (await engine.readPixels(0, 0, w, h)) as Uint8Array;
    const m = scene.getTransformMatrix().m as number[];
    return pts.map(([x, y, z]) => {
      const cw = x! * m[3]! + y! * m[7]! + z! * m[11]! + m[15]!;
      const sx = Math.round((((x! * m[0]! + y! * m[4]! + z! * m[8]! + m[12]!) / cw + 1) / 2) * w);
      const sy = Math.round((((x! * m[1]! + y! * m[5]! + z! * m[9]! + m[13]!) / cw + 1) / 2) * h);
      const sum = [0, 0, 0];
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const i = (Math.min(h - 1, Math.max(0, sy + dy)) * w + Math.min(w - 1, Math.max(0, sx + dx))) * 4;
          for (let c = 0; c < 3; c++) sum[c]! += px[i + c]!;
        }
      return sum.map((s) => s / 9);
    });
  }, points);
}

const luma = ([r, g, b]: number[]) => 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;

/** World points on a ring on the ground (y = 0) around (x, 0, z), `n` of them from azimuth 0 (+X) towards +Z. */
const ring = (x: number, z: number, radius: number, n: number) =>
  Array.from({ length: n }, (_, k) => [x + radius * Math.cos((2 * Math.PI * k) / n), 0, z + radius * Math.sin((2 * Math.PI * k) / n)]);

/** Runs of consecutive dark samples around a closed ring. */
function darkRuns(dark: boolean[]): number {
  let runs = 0;
  dark.forEach((d, k) => {
    if (d && !dark[(k + dark.length - 1) % dark.length]) runs++;
  });
  return runs === 0 && dark.every(Boolean) ? 1 : runs;
}

async function shot(name: string): Promise<void> {
  if (process.env.SHOTS) await page.screenshot({ path: `${process.env.SHOTS}/${name}.png` });
}

describe("the playground after a sunny skybox is applied at the pane's defaults", () => {
  test(
    "one light casts shadows, the skybox's sun, and the playground's own light is off",
    async () => {
      await shot("before");
      const applied = await page.evaluate(async (record) => {
        const { pane } = (window as any).playground;
        const handle = await pane.apply.apply(record);
        return { sun: handle?.sun !== null, ground: handle?.backgroundMesh?.getClassName() ?? null };
      }, sunny);
      expect(applied.sun).toBe(true);
      const lights = await page.evaluate(() => {
        const { scene, pane } = (window as any).playground;
        const shadowing = scene.lights.filter((l: any) => l.isEnabled() && l.shadowEnabled && l.getShadowGenerator());
        return { shadowing: shadowing.map((l: any) => l.name), skyboxSun: pane.apply.handle.sun.light.name };
      });
      expect(lights.shadowing).toEqual([lights.skyboxSun]);
      await shot("applied");
    },
    LONG,
  );

  test(
    "one shadow falls by a sphere's foot, away from the sun, darker than the picture's ground beside it",
    async () => {
      // Seen from above; the end sphere on the sun's side, where no other object's shadow reaches.
      const away = await page.evaluate(() => {
        const { scene, pane } = (window as any).playground;
        scene.activeCamera.beta = 0.12;
        const d = pane.apply.handle.sun.direction;
        return Math.atan2(-d.z, -d.x);
      });
      await shot("above");
      const x = Math.cos(away) > 0 ? -2.6 : 2.6;
      const n = 48;
      const lum = (await colours(ring(x, 0, 0.72, n))).map(luma);
      await page.evaluate(() => ((window as any).playground.scene.activeCamera.beta = 1.25));
      const lit = [...lum].sort((a, b) => a - b)[Math.floor(0.75 * n)]!;
      const dark = lum.map((l) => l < 0.8 * lit);
      const darkest = lum.indexOf(Math.min(...lum));
      const off = Math.abs((((2 * Math.PI * darkest) / n - away + 3 * Math.PI) % (2 * Math.PI)) - Math.PI);
      const report = `sphere at ${x}: ${darkRuns(dark)} dark run(s) over ${dark.filter(Boolean).length}/${n} samples, darkest ${(Math.min(...lum) / lit).toFixed(2)} of the lit ground, ${((off * 180) / Math.PI).toFixed(0)} degrees off the shade's side`;
      console.log(report);
      expect(darkRuns(dark), report).toBe(1);
      expect(Math.min(...lum), report).toBeLessThan(0.7 * lit);
      expect(off, report).toBeLessThan((40 * Math.PI) / 180);
    },
    LONG,
  );

  test(
    "orbiting the camera by 30 degrees, the ground by the objects keeps its colours",
    async () => {
      // A grid of the picture's ground in front of the objects, half a unit apart.
      const points = [-1, -1.5, -2].flatMap((z) => Array.from({ length: 13 }, (_, k) => [-3 + 0.5 * k, 0, z]));
      const before = await colours(points);
      await page.evaluate(() => ((window as any).playground.scene.activeCamera.alpha += Math.PI / 6));
      const after = await colours(points);
      await shot("orbited");
      await page.evaluate(() => ((window as any).playground.scene.activeCamera.alpha -= Math.PI / 6));
      const distance = (a: number[], b: number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);
      const mean = (values: number[]) => values.reduce((s, d) => s + d, 0) / values.length;
      const moved = mean(before.map((c, k) => distance(c, after[k]!)));
      // How much the ground's colour changes over half a unit: what a ground sliding under the objects changes by.
      const contrast = mean(before.flatMap((c, k) => (k % 13 === 12 ? [] : [distance(c, before[k + 1]!)])));
      console.log(`ground colours: ${moved.toFixed(1)} apart after the orbit, ${contrast.toFixed(1)} between neighbours half a unit apart`);
      expect(moved).toBeLessThan(0.4 * contrast);
    },
    LONG,
  );

  test("the page logged no errors", () => {
    expect(errors).toEqual([]);
  });
});
