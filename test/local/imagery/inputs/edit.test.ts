import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directionOfDegrees, directionOfUv } from "../../../../src/api/panorama/panorama-directions.ts";
import { generateSkybox } from "../../../../src/local/imagery/pipeline/generate-skybox.ts";
import { createImageryPool, type ImageryPool } from "../../../../src/local/imagery/pipeline/render-pool.ts";
import { H, readDistance, readJpeg, readRadiance, removeTempDirs, request, tempDir, W } from "../render-fixtures.ts";

let pool: ImageryPool;
let source: string;
let edited: string;
/** The edit centre in degrees (longitude, latitude): u = 0.25, v = 0.45 of the panorama. */
const centre = { x: -90, y: 9 };

beforeAll(async () => {
  pool = createImageryPool({ size: 2 });
  source = tempDir("edit-source");
  await generateSkybox(request({ prompt: "mountains above a lake at sunset" }), source, { pool });
  edited = tempDir("edit");
  await generateSkybox(
    request({ prompt: "city skyline at night", seed: 12, edit: { from: source, centerX: centre.x, centerY: centre.y, fov: 70 } }),
    edited,
    { pool },
  );
});
afterAll(async () => {
  await pool.close();
  removeTempDirs();
});

/** Angle (degrees) between pixel (x, y) of a w x h panorama and the edit centre. */
function angleFromCentre(x: number, y: number, w: number, h: number): number {
  const a = new Float64Array(3);
  directionOfUv((x + 0.5) / w, (y + 0.5) / h, a);
  const b = directionOfDegrees(centre.x, centre.y);
  return (Math.acos(Math.min(1, a[0]! * b[0] + a[1]! * b[1] + a[2]! * b[2])) * 180) / Math.PI;
}

describe("edit", () => {
  it("keeps the source exactly outside the region and changes it inside", async () => {
    const a = readRadiance(source).rgb;
    const b = readRadiance(edited).rgb;
    let outside = 0;
    let outsideSame = 0;
    let inside = 0;
    let insideDiff = 0;
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const angle = angleFromCentre(x, y, W, H);
        const o = (y * W + x) * 3;
        const same = a[o] === b[o] && a[o + 1] === b[o + 1] && a[o + 2] === b[o + 2];
        if (angle > 36) {
          outside++;
          if (same) outsideSame++;
        } else if (angle < 20) {
          inside++;
          insideDiff += Math.abs(a[o + 1]! - b[o + 1]!) / (a[o + 1]! + b[o + 1]! + 1e-3);
        }
      }
    }
    expect(outsideSame).toBe(outside);
    expect(insideDiff / inside).toBeGreaterThan(0.3);
  });

  it("keeps the JPEG nearly identical outside the region", async () => {
    const a = await readJpeg(source);
    const b = await readJpeg(edited);
    let diff = 0;
    let n = 0;
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        if (angleFromCentre(x, y, W, H) < 40) continue;
        const o = (y * W + x) * 3;
        for (let c = 0; c < 3; c++) diff += Math.abs(a.data[o + c]! - b.data[o + c]!);
        n += 3;
      }
    }
    expect(diff / n).toBeLessThan(1.5);
  });

  it("keeps the source distances outside the region", () => {
    const a = readDistance(source);
    const b = readDistance(edited);
    for (let y = 0; y < 128; y += 3) {
      for (let x = 0; x < 256; x += 3) {
        if (angleFromCentre(x, y, 256, 128) > 36) expect(b[y * 256 + x]).toBe(a[y * 256 + x]);
      }
    }
  });

  it("records the edit in scene.json on top of the source scene", () => {
    const scene = JSON.parse(readFileSync(join(edited, "scene.json"), "utf8"));
    expect(scene.relief).toBe("mountains");
    expect(scene.edits).toHaveLength(1);
    expect(scene.edits[0].scene.time).toBe("night");
    expect(scene.edits[0].scene.city).not.toBeNull();
  });
});
