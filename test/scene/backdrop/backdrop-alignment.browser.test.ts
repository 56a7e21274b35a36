/**
 * The backdrop shows the panorama where it is (Chromium, WebGL2): seen from its centre with
 * the background hidden, the Model 3 GLB backdrop and the Model 4 depth backdrop each show the
 * panorama's own pixels in every direction, above and below the horizon. Their pictures reach
 * the GPU as decoded bitmaps, which WebGL uploads without flipping (glb-images.ts,
 * backdrop-from-depth.ts): a picture upside down or mirrored shows here.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Generation } from "../../../src/api/index.ts";
import { complete, generate, openSceneFixture, panoramaOf, type SceneFixture } from "../scene-fixture.ts";

let f: SceneFixture;
let model3: Generation;
let model4: Generation;

/** Away from the poles, where a sphere of 64 x 32 facets shows the panorama within a few pixels. */
const VIEWS = [
  [0, 20],
  [75, -25],
  [150, 35],
  [225, -15],
  [300, 10],
] as const;

beforeAll(async () => {
  f = await openSceneFixture({}, { local: { imageScale: 1 / 8 } });
  const pending = await Promise.all([generate(f.client, "mountain lake at dawn", 3, 5), generate(f.client, "mountain lake at dawn", 4, 5)]);
  [model3, model4] = (await Promise.all(pending.map((g) => complete(f.client, g.id)))) as [Generation, Generation];
}, 180_000);

afterAll(async () => {
  await f?.close();
});

describe("the backdrop lines up with the panorama", () => {
  test.each([
    ["Model 3 (GLB export)", () => model3],
    ["Model 4 (from the depth map)", () => model4],
  ])("%s", async (_, record) => {
    const applied = await f.page.evaluate(
      (id) => window.skyboxTest.apply(id, { cache: false, lighting: false, background: false, backdrop: { meshQuality: "low" } }),
      record().id,
    );
    expect(applied.backdrop).not.toBeNull();
    const pano = await panoramaOf(f.pages.url, record());
    for (const [yaw, pitch] of VIEWS) {
      const seen = await f.page.evaluate(([y, p]) => window.skyboxTest.look(y, p), [yaw, pitch] as const);
      expect(pano.distance(seen, yaw, pitch, 2), `yaw ${yaw} pitch ${pitch}`).toBeLessThan(16);
    }
  });
});
