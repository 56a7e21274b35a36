/**
 * The depth backdrop of every style of the local catalogue, seen in Chromium: a desert
 * canyon's mesas, the skybox's edges at their sharpest, must show no echoes (copies of
 * every edge a few pixels apart: a fishnet, fanned out into starbursts round bright
 * points). Only the backdrop is shown, from its centre, where it shows the panorama's own
 * pixels: what is judged is what the user sees of it.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { STYLES } from "../../../src/local/catalogue/styles.ts";
import { echoScores } from "../periodic-structure.ts";
import { complete, openSceneFixture, panoramaOf, type SceneFixture } from "../scene-fixture.ts";

const PROMPT = "desert canyon at noon";
// Point taps spread evenly over the painterly stroke (9 pixels each way per 1024 of the
// panorama's width) in 7 lay echoes 3 pixels apart per 1024. The camera shows 2048 / (2 pi)
// pixels a radian, as many as a panorama 2048 wide has: such echoes are 6 pixels apart on
// the screen whatever the panorama's size.
const LAG = 6;
const VIEW = { width: 640, height: 360 };
const FOV = 2 * Math.atan(VIEW.height / 2 / (2048 / (2 * Math.PI)));
/** Share of the detailed tiles whose detail may repeat at the brush's spacing (every style: under a tenth). */
const MAX_ECHO_SHARE = 0.2;

let f: SceneFixture;

beforeAll(async () => {
  f = await openSceneFixture({}, { local: { imageScale: 1 / 8 } });
  await f.page.evaluate(([w, h, fov]) => window.skyboxTest.view(w, h, fov), [VIEW.width, VIEW.height, FOV] as const);
}, 300_000);

afterAll(async () => {
  await f?.close();
});

/** The share of tiles of the backdrop, seen around the horizon, whose detail echoes at the brush's spacing. */
async function echoShare(): Promise<number> {
  const scores: number[] = [];
  for (const yaw of [0, 90, 180, 270]) {
    await f.page.evaluate((y) => window.skyboxTest.look(y, 2), yaw);
    const png = await f.page.locator("#scene").screenshot();
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    const values = new Float32Array(info.width * info.height);
    for (let i = 0; i < values.length; i++)
      values[i] = 0.3 * data[i * info.channels]! + 0.59 * data[i * info.channels + 1]! + 0.11 * data[i * info.channels + 2]!;
    scores.push(...echoScores({ width: info.width, height: info.height, values }, LAG));
  }
  return scores.filter((s) => s > 0.1).length / scores.length;
}

describe("the depth backdrop of every style", () => {
  test.each(STYLES.map((s) => [s.name, s] as const))("%s: no echoes of its edges", async (_, style) => {
    const variant = style.model === 4 ? { variant_id: style.id * 10 + 1 } : {};
    const record = await complete(
      f.client,
      (await f.client.generate({ prompt: PROMPT, skybox_style_id: style.id, seed: 1, ...variant })).id,
    );
    const applied = await f.page.evaluate(
      (id) => window.skyboxTest.apply(id, { cache: false, lighting: false, background: false, backdrop: { meshQuality: "high" } }),
      record.id,
    );
    expect(applied.backdrop).not.toBeNull();
    if (style.model === 3) {
      // The backdrop's export is asked for as the backdrop's, in words.
      expect(applied.stages).toContainEqual({
        stage: "requesting-export",
        part: "backdrop",
        detail: "GLB mesh, high quality, depth scale 3",
      });
    }
    const { width } = await panoramaOf(f.pages.url, record);
    const share = await echoShare();
    expect(share, `${style.name}, ${width} wide: share of tiles with echoes`).toBeLessThan(MAX_ECHO_SHARE);
  });
});
