import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { directionOfUv } from "../../../../src/api/panorama/panorama-directions.ts";
import { generateSkybox } from "../../../../src/local/imagery/pipeline/generate-skybox.ts";
import { IMAGE_TO_PANO_FOV } from "../../../../src/local/imagery/inputs/image-to-pano.ts";
import { H, luma, readJpeg, renderPool, request, tempDir, W } from "../render-fixtures.ts";

const pool = renderPool();

/** A 320x240 picture: warm sky over a green field, with a dark square in the middle. */
async function picture(): Promise<{ png: Buffer; data: Buffer }> {
  const w = 320;
  const h = 240;
  const data = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * 3;
      const square = Math.abs(x - 160) < 30 && Math.abs(y - 140) < 30;
      const rgb = square ? [20, 20, 30] : y < 110 ? [250, 170, 90] : [60, 140, 50];
      data.set(rgb, o);
    }
  }
  return {
    png: await sharp(data, { raw: { width: w, height: h, channels: 3 } })
      .png()
      .toBuffer(),
    data,
  };
}

describe("image to pano", () => {
  it("shows the picture straight ahead and extends its colours around it", async () => {
    const { png, data } = await picture();
    const dir = tempDir("pano");
    await generateSkybox(request({ prompt: "", imageToPano: png }), dir, { pool: pool() });
    const pano = await readJpeg(dir);
    const tanX = Math.tan(((IMAGE_TO_PANO_FOV / 2) * Math.PI) / 180);
    const tanY = (tanX * 240) / 320;
    const d = new Float64Array(3);
    let diff = 0;
    let n = 0;
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        directionOfUv((x + 0.5) / W, (y + 0.5) / H, d);
        if (d[2]! >= -0.1) continue;
        const X = d[0]! / -d[2]! / tanX;
        const Y = -d[1]! / -d[2]! / tanY;
        // The central part of the frame (the border is feathered into the panorama).
        if (Math.abs(X) > 0.75 || Math.abs(Y) > 0.75) continue;
        const px = Math.min(319, Math.floor(((X + 1) / 2) * 320));
        const py = Math.min(239, Math.floor(((Y + 1) / 2) * 240));
        for (let c = 0; c < 3; c++) diff += Math.abs(pano.data[(y * W + x) * 3 + c]! - data[(py * 320 + px) * 3 + c]!);
        n += 3;
      }
    }
    expect(n).toBeGreaterThan(1000);
    expect(diff / n).toBeLessThan(14);
    // The dark square is at the centre of the panorama.
    expect(luma(pano, W / 2, Math.round(H * 0.56))).toBeLessThan(60);
    // Behind the camera the scene continues: bright sky above, darker ground below.
    expect(luma(pano, 10, Math.round(H * 0.3))).toBeGreaterThan(luma(pano, 10, Math.round(H * 0.8)));
  });
});
