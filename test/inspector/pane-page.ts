/**
 * What the pane's browser test does to the playground page: the pane's controls by test id,
 * and the canvas's pixels (read back through Babylon, rows from the bottom).
 */
import type { Locator, Page } from "playwright-core";

/** Mean RGB of each cell of a `cols` x `rows` grid over the canvas. */
export type PixelGrid = number[][];

export async function sampleCanvas(page: Page, cols = 8, rows = 6): Promise<PixelGrid> {
  return page.evaluate(
    async ({ cols, rows }) => {
      const { engine, scene } = (window as unknown as { playground: { engine: any; scene: any } }).playground;
      await scene.whenReadyAsync();
      scene.render();
      const w = engine.getRenderWidth();
      const h = engine.getRenderHeight();
      const px = (await engine.readPixels(0, 0, w, h)) as Uint8Array;
      const grid: number[][] = [];
      for (let gy = 0; gy < rows; gy++)
        for (let gx = 0; gx < cols; gx++) {
          const sum: [number, number, number] = [0, 0, 0];
          let n = 0;
          for (let y = Math.floor((gy * h) / rows); y < Math.floor(((gy + 1) * h) / rows); y += 4)
            for (let x = Math.floor((gx * w) / cols); x < Math.floor(((gx + 1) * w) / cols); x += 4) {
              const i = (y * w + x) * 4;
              sum[0] += px[i]!;
              sum[1] += px[i + 1]!;
              sum[2] += px[i + 2]!;
              n++;
            }
          grid.push(sum.map((s) => s / Math.max(1, n)));
        }
      return grid;
    },
    { cols, rows },
  );
}

/** Mean absolute difference (0..255) between two grids, over the cells and channels. */
export function gridDifference(a: PixelGrid, b: PixelGrid): number {
  let total = 0;
  let n = 0;
  a.forEach((cell, i) =>
    cell.forEach((v, c) => {
      total += Math.abs(v - b[i]![c]!);
      n++;
    }),
  );
  return total / n;
}

/** Opens a section of the pane's accordion when it is closed. */
export async function openSection(page: Page, section: string): Promise<void> {
  const item = page.getByTestId(`skybox-section-${section}`);
  const header = item.locator("button").first();
  if ((await header.getAttribute("aria-expanded")) !== "true") await header.click();
}

/** Scene objects by name, from the page. */
export function hasNode(page: Page, name: string): Promise<boolean> {
  return page.evaluate((n) => {
    const { scene } = (window as unknown as { playground: { scene: any } }).playground;
    return Boolean(scene.getTransformNodeByName(n) ?? scene.getMeshByName(n));
  }, name);
}

/** Luminance (0..255) of an element's text colour, or of the first opaque background behind it. */
export function luminance(element: Locator, what: "color" | "background"): Promise<number> {
  return element.evaluate((el, what) => {
    const rgb = (css: string) => (css.match(/[\d.]+/g) ?? []).map(Number);
    let node: Element | null = el;
    let c = rgb(getComputedStyle(el).color);
    while (what === "background" && node) {
      c = rgb(getComputedStyle(node).backgroundColor);
      if ((c[3] ?? 1) > 0.5) break;
      node = node.parentElement;
    }
    return 0.2126 * c[0]! + 0.7152 * c[1]! + 0.0722 * c[2]!;
  }, what);
}
