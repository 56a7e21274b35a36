/**
 * The grounded background's far ground seen as a user sees it, in Chromium (SwiftShader
 * WebGL2), at 1440x1000 and 1280x720: from the playground's default camera and from above
 * (an orbit at alpha 1.57, beta 0.9, radius 25 round the playground's target). A panorama's
 * ground pressed flat far from the centre stretches each pixel along its radius, which from
 * above draws radial streaks: the picture's detail there changes across the radius and not
 * along it. Measured on the canvas: in a ring of the ground 15 to 60 units out, the
 * luminance's gradient energy across the radius over its energy along it.
 * GROUND_SHOTS=dir saves the canvas of each view there, for a person to look at.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Generation } from "../../../src/api/index.ts";
import { complete, generate, openSceneFixture, type SceneFixture } from "../scene-fixture.ts";

let f: SceneFixture;
let desert: Generation;

/** Half-size Model 3 panoramas, as the playground shows them in development. */
beforeAll(async () => {
  f = await openSceneFixture({}, { local: { imageScale: 1 / 2 } });
  desert = await complete(f.client, (await generate(f.client, "clear rocky desert in the afternoon", 3, 3)).id);
  await f.page.evaluate(([id, o]) => window.skyboxTest.apply(id, o), [
    desert.id,
    { lighting: { size: 64, quality: 16 }, backdrop: false, cache: false, background: { ground: true } },
  ] as const);
}, 300_000);

afterAll(async () => {
  await f?.close();
});

type Vec3 = [number, number, number];
const TARGET: Vec3 = [0, 1, 0];
/** An orbit camera's position (Babylon's ArcRotateCamera: alpha round Y from +X, beta from +Y). */
const orbit = (alpha: number, beta: number, radius: number): Vec3 => [
  TARGET[0] + radius * Math.cos(alpha) * Math.sin(beta),
  TARGET[1] + radius * Math.cos(beta),
  TARGET[2] + radius * Math.sin(alpha) * Math.sin(beta),
];
const VIEWS = { default: orbit(-Math.PI / 2, 1.25, 9), above: orbit(1.57, 0.9, 25) };
const SIZES = [
  [1440, 1000],
  [1280, 720],
] as const;

/** Ground points of the ring (15 to 60 units out), each with a point a little further out and one a little round. */
function ringSamples(): { at: Vec3; out: Vec3; round: Vec3 }[] {
  const samples: { at: Vec3; out: Vec3; round: Vec3 }[] = [];
  for (let rho = 15; rho <= 60; rho += 3)
    for (let k = 0; k < 120; k++) {
      const a = (2 * Math.PI * k) / 120;
      const point = (r: number, b: number): Vec3 => [r * Math.cos(b), 0, r * Math.sin(b)];
      samples.push({ at: point(rho, a), out: point(rho + 0.05, a), round: point(rho, a + 0.05 / rho) });
    }
  return samples;
}

interface Luma {
  width: number;
  height: number;
  values: Float32Array;
}

async function view(from: Vec3, points: Vec3[], name: string): Promise<{ luma: Luma; screen: number[][] }> {
  const screen = await f.page.evaluate(([p, t, pts]) => window.skyboxTest.lookFrom(p, t, pts), [from, TARGET, points] as const);
  const png = await f.page.locator("#scene").screenshot();
  if (process.env.GROUND_SHOTS) await sharp(png).toFile(`${process.env.GROUND_SHOTS}/${name}.png`);
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const values = new Float32Array(info.width * info.height);
  for (let i = 0; i < values.length; i++)
    values[i] = 0.2126 * data[i * info.channels]! + 0.7152 * data[i * info.channels + 1]! + 0.0722 * data[i * info.channels + 2]!;
  return { luma: { width: info.width, height: info.height, values }, screen };
}

/**
 * Gradient energy of the luminance across the ground's radius over its energy along it, in
 * 9x9 pixel windows round each sample of the ring in view (streaks: far above 1).
 */
function streakRatio(luma: Luma, screen: number[][]): { ratio: number; windows: number } {
  const { width, height, values } = luma;
  const at = (x: number, y: number) => values[Math.round(y) * width + Math.round(x)]!;
  let across = 0;
  let along = 0;
  let windows = 0;
  for (let s = 0; s < screen.length; s += 3) {
    const [x, y] = screen[s]!;
    const [ox, oy] = screen[s + 1]!;
    const [rx, ry] = screen[s + 2]!;
    if (!(x! > 8 && y! > 8 && x! < width - 9 && y! < height - 9)) continue;
    // Unit screen directions of the ground's radius and of its round.
    const radial = [ox! - x!, oy! - y!];
    const round = [rx! - x!, ry! - y!];
    const rl = Math.hypot(radial[0]!, radial[1]!);
    const tl = Math.hypot(round[0]!, round[1]!);
    if (rl < 1e-3 || tl < 1e-3) continue;
    windows++;
    for (let dy = -4; dy <= 4; dy++)
      for (let dx = -4; dx <= 4; dx++) {
        const px = x! + dx;
        const py = y! + dy;
        const gx = (at(px + 1, py) - at(px - 1, py)) / 2;
        const gy = (at(px, py + 1) - at(px, py - 1)) / 2;
        along += ((gx * radial[0]! + gy * radial[1]!) / rl) ** 2;
        across += ((gx * round[0]! + gy * round[1]!) / tl) ** 2;
      }
  }
  return { ratio: across / Math.max(along, 1e-9), windows };
}

describe("the grounded background's far ground", () => {
  const samples = ringSamples();
  const points = samples.flatMap((s) => [s.at, s.out, s.round]);
  test.each(SIZES)("at %ix%i, from above, is drawn without radial streaks", async (width, height) => {
    await f.page.setViewportSize({ width, height });
    await f.page.evaluate(([w, h]) => window.skyboxTest.view(w, h, 0.8), [width, height] as const);
    for (const [name, from] of Object.entries(VIEWS)) {
      const { luma, screen } = await view(from, points, `${name}-${width}x${height}`);
      const { ratio, windows } = streakRatio(luma, screen);
      console.log(`${name} at ${width}x${height}: across/along the radius ${ratio.toFixed(2)} over ${windows} windows`);
      if (name === "above") {
        expect(windows).toBeGreaterThan(200);
        expect(ratio).toBeLessThan(1.3);
      }
    }
  });

  test("the page logged no errors", () => {
    expect(f.pageErrors).toEqual([]);
  });
});
