import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createImageryPool } from "../../../../src/local/imagery/pipeline/render-pool.ts";
import { generateSkybox, SKY_DISTANCE } from "../../../../src/local/imagery/pipeline/generate-skybox.ts";
import { meanAbsDiff, readDistance, readJpeg, readRadiance, renderPool, request, tempDir } from "../render-fixtures.ts";

const pool = renderPool();

async function render(overrides: Parameters<typeof request>[0]): Promise<string> {
  const dir = tempDir("variety");
  await generateSkybox(request(overrides), dir, { pool: pool() });
  return dir;
}

function maxRadiance(dir: string): number {
  const { rgb } = readRadiance(dir);
  let m = 0;
  for (const v of rgb) if (v > m) m = v;
  return m;
}

describe("rendering", () => {
  it("is deterministic: an identical request gives identical bytes", async () => {
    const a = await render({ prompt: "forest hills on a cloudy morning" });
    const b = await render({ prompt: "forest hills on a cloudy morning" });
    for (const f of ["image.jpg", "radiance.hdr", "distance.f32", "depth.png", "scene.json"]) {
      expect(readFileSync(join(a, f)).equals(readFileSync(join(b, f))), f).toBe(true);
    }
  });

  it("does not depend on how the work was split (pool size)", async () => {
    const single = createImageryPool({ size: 1 });
    try {
      const a = tempDir("split");
      await generateSkybox(request({ prompt: "city skyline at dusk" }), a, { pool: single });
      const b = await render({ prompt: "city skyline at dusk" });
      expect(readFileSync(join(a, "radiance.hdr")).equals(readFileSync(join(b, "radiance.hdr")))).toBe(true);
    } finally {
      await single.close();
    }
  });

  it("removes what negativeText names: no mountains, no distant skyline", async () => {
    const skylineRows = (dir: string): number => {
      // Depth-map rows above the horizon (elevation 1.4 to 12 degrees) that hit something.
      const d = readDistance(dir);
      let hits = 0;
      for (let y = 55; y < 63; y++) for (let x = 0; x < 256; x++) if (d[y * 256 + x]! < SKY_DISTANCE) hits++;
      return hits / (8 * 256);
    };
    const withMountains = await render({ prompt: "mountains at sunset" });
    const without = await render({ prompt: "mountains at sunset", negativeText: "mountains" });
    expect(skylineRows(withMountains)).toBeGreaterThan(0.3);
    expect(skylineRows(without)).toBeLessThan(skylineRows(withMountains) / 3);
  });

  it("keeps the sun far brighter than the sky in the HDR radiance", async () => {
    const noon = await render({ prompt: "clear sky at noon over the ocean" });
    expect(maxRadiance(noon)).toBeGreaterThan(10);
    const sunset = await render({ prompt: "clear sunset over desert dunes" });
    expect(maxRadiance(sunset)).toBeGreaterThan(10);
    const { rgb } = readRadiance(noon);
    // The sky itself stays in an ordinary range (zenith row).
    const zenith = rgb[1]!;
    expect(zenith).toBeGreaterThan(0.1);
    expect(zenith).toBeLessThan(2);
  });

  it("renders night without anything brighter than 1 (moon and stars included)", async () => {
    const night = await render({ prompt: "starry night over rolling hills" });
    expect(maxRadiance(night)).toBeLessThan(1);
    const img = await readJpeg(night);
    // ...yet it is not black: stars and a moonlit sky show.
    expect(img.data.reduce((m, v) => (v > m ? v : m), 0)).toBeGreaterThan(150);
  });

  it("gives different prompts measurably different images", async () => {
    const base = await readJpeg(await render({ prompt: "mountains at sunset" }));
    const ocean = await readJpeg(await render({ prompt: "tropical ocean at noon" }));
    const city = await readJpeg(await render({ prompt: "city skyline at night" }));
    expect(meanAbsDiff(base.data, ocean.data)).toBeGreaterThan(20);
    expect(meanAbsDiff(base.data, city.data)).toBeGreaterThan(20);
  });

  it("renders space scenes with no ground", async () => {
    const dir = await render({ prompt: "deep space nebula with a ringed planet" });
    const scene = JSON.parse(readFileSync(join(dir, "scene.json"), "utf8"));
    expect(scene.relief).toBe("none");
    expect(scene.nebula).not.toBeNull();
    expect(scene.planets.length).toBeGreaterThan(0);
  });
});
