/**
 * The grounded background in Chromium (SwiftShader WebGL2) against the local Skybox service:
 * seen from its projection centre it shows the panorama as the dome does, in every direction
 * (the ground included) and turned by the rotation; seen from elsewhere, a point of its
 * ground keeps its colour (the dome's picture slides); it hides, re-applies from the textures
 * kept in memory, and gives everything back on disposal.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Generation } from "../../../src/api/index.ts";
import { colourDistance, complete, generate, openPage, openSceneFixture, type SceneFixture } from "../scene-fixture.ts";

let f: SceneFixture;
let desert: Generation;

beforeAll(async () => {
  f = await openSceneFixture();
  desert = await complete(f.client, (await generate(f.client, "clear rocky desert in the afternoon", 3, 3)).id);
}, 120_000);

afterAll(async () => {
  await f?.close();
});

const small = { lighting: { size: 64, quality: 16 }, backdrop: false as const };
const HEIGHT = 2;
const grounded = { ...small, background: { ground: { height: HEIGHT, radius: 100 } } };
/** Directions (panorama yaw, pitch in degrees) over the sky, the horizon and the ground. */
const VIEWS: readonly [number, number][] = [0, 90, 180, 270].flatMap(
  (yaw) =>
    [
      [yaw, 25],
      [yaw, 0],
      [yaw, -30],
      [yaw, -60],
    ] as [number, number][],
);
const CENTRE: [number, number, number] = [0, HEIGHT, 0];

async function looks(views: readonly [number, number][], at: [number, number, number] = CENTRE, turn = 0): Promise<number[][]> {
  const out: number[][] = [];
  for (const [yaw, pitch] of views)
    out.push(await f.page.evaluate(([y, p, a]) => window.skyboxTest.look(y, p, a), [yaw - turn, pitch, at] as const));
  return out;
}

/** Colour of the ground point `distance` units from under the centre towards `yaw`, seen from `from`. */
async function groundPoint(yaw: number, distance: number, from: [number, number, number]): Promise<number[]> {
  const r = (yaw * Math.PI) / 180;
  const [x, z] = [distance * Math.sin(r), distance * Math.cos(r)];
  const [dx, dy, dz] = [x - from[0], -from[1], z - from[2]];
  const lookYaw = (Math.atan2(dx, dz) * 180) / Math.PI;
  const lookPitch = (Math.atan2(dy, Math.hypot(dx, dz)) * 180) / Math.PI;
  return f.page.evaluate(([y, p, a]) => window.skyboxTest.look(y, p, a), [lookYaw, lookPitch, from] as const);
}

describe("the grounded background", () => {
  test("from its projection centre it shows what the dome shows, in every direction, and turns with the rotation", async () => {
    await f.page.evaluate(([id, o]) => window.skyboxTest.apply(id, o), [desert.id, { ...small, cache: false }] as const);
    const dome = await looks(VIEWS);
    const applied = await f.page.evaluate(([id, o]) => window.skyboxTest.apply(id, o), [desert.id, { ...grounded, cache: false }] as const);
    expect(applied.materials.some((m) => m.startsWith("BackgroundMaterial:"))).toBe(true);
    const ground = await looks(VIEWS);
    const off = VIEWS.map((v, k) => `${v.join("/")}: ${colourDistance(ground[k]!, dome[k]!).toFixed(1)}`);
    expect(Math.max(...VIEWS.map((_, k) => colourDistance(ground[k]!, dome[k]!))), off.join(", ")).toBeLessThan(12);
    // Turned by 90 degrees, what was at yaw y shows at y - 90.
    await f.page.evaluate(() => window.skyboxTest.setRotation(Math.PI / 2));
    const turned = await looks(VIEWS, CENTRE, 90);
    expect(Math.max(...VIEWS.map((_, k) => colourDistance(turned[k]!, dome[k]!)))).toBeLessThan(12);
    await f.page.evaluate(() => window.skyboxTest.setRotation(0));
  });

  test("a point of its ground keeps its colour seen from elsewhere; the dome's slides", async () => {
    const points = [0, 60, 120, 180, 240, 300].map((yaw) => [yaw, 3] as const);
    const moved = async () => {
      let sum = 0;
      for (const [yaw, d] of points) sum += colourDistance(await groundPoint(yaw, d, [0, 1.5, -4]), await groundPoint(yaw, d, [3, 3, 2]));
      return sum / points.length;
    };
    const groundMoved = await moved();
    await f.page.evaluate(([id, o]) => window.skyboxTest.apply(id, o), [desert.id, { ...small, cache: false }] as const);
    const domeMoved = await moved();
    console.log(
      `a ground point's colour seen from two places: ${groundMoved.toFixed(1)} apart on the grounded background, ${domeMoved.toFixed(1)} on the dome`,
    );
    expect(groundMoved).toBeLessThan(0.35 * domeMoved);
  });

  test("hides and shows; a re-apply takes its panorama kept in memory; disposed, nothing of it stays", async () => {
    await f.page.evaluate(() => window.skyboxTest.disposeCurrent());
    const baseline = await f.page.evaluate(() => window.skyboxTest.counts());
    const first = await f.page.evaluate(([id, o]) => window.skyboxTest.apply(id, o), [desert.id, grounded] as const);
    const shown = await looks([[0, -30]]);
    await f.page.evaluate(() => window.skyboxTest.setVisible({ background: false }));
    const hidden = await looks([[0, -30]]);
    expect(colourDistance(hidden[0]!, shown[0]!)).toBeGreaterThan(20);
    await f.page.evaluate(() => window.skyboxTest.setVisible({ background: true }));
    const again = await f.page.evaluate(([id, o]) => window.skyboxTest.apply(id, o), [desert.id, grounded] as const);
    expect(again.gpuTextures.dome).toBe(first.gpuTextures.dome);
    expect(again.textureWork).toEqual({});
    expect(colourDistance((await looks([[0, -30]]))[0]!, shown[0]!)).toBeLessThan(2);
    await f.page.evaluate(() => window.skyboxTest.disposeCurrent());
    await f.page.evaluate(() => window.skyboxTest.clearMemory());
    await new Promise((r) => setTimeout(r, 50));
    const after = await f.page.evaluate(() => window.skyboxTest.counts());
    expect(after).toEqual(baseline);
  });

  test("a right-handed scene shows it the right way round", async () => {
    const page = await f.browser.newPage();
    try {
      await openPage(page, f.pages.url, { rightHanded: true });
      const look = async () => {
        const out: number[][] = [];
        for (const [yaw, pitch] of VIEWS)
          out.push(await page.evaluate(([y, p, a]) => window.skyboxTest.look(y, p, a), [yaw, pitch, CENTRE] as const));
        return out;
      };
      await page.evaluate(([id, o]) => window.skyboxTest.apply(id, o), [desert.id, { ...small, cache: false }] as const);
      const dome = await look();
      await page.evaluate(([id, o]) => window.skyboxTest.apply(id, o), [desert.id, { ...grounded, cache: false }] as const);
      const ground = await look();
      expect(Math.max(...VIEWS.map((_, k) => colourDistance(ground[k]!, dome[k]!)))).toBeLessThan(12);
    } finally {
      await page.close();
    }
  });

  test("the page logged no errors", () => {
    expect(f.pageErrors).toEqual([]);
  });
});
