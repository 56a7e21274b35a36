import { describe, expect, it } from "vitest";
import type { RenderRequest } from "../../../../src/local/imagery/contract.ts";
import { generateSkybox } from "../../../../src/local/imagery/pipeline/generate-skybox.ts";
import { readDistance, readJpeg, renderPool, request, tempDir } from "../render-fixtures.ts";
import {
  fineTexture,
  linearLuminance,
  meanDisplayLuma,
  pieceSpeckle,
  rowSeam,
  skyBlend,
  skylineContour,
  skyRoughness,
  skylineRows,
  stairShare,
} from "./picture-measures.ts";

/*
 * What a newcomer judges up close, measured on small renders read at their own pixels
 * (the depth map rendered at the image's size says which pixel centres see ground): a
 * ridge against the sky is anti-aliased, not a staircase, and a painted mesa is solid, not
 * a blend with the sky behind it.
 */

const pool = renderPool();
const size = { width: 1024, height: 512 };

async function render(overrides: Partial<RenderRequest>): Promise<string> {
  const dir = tempDir("quality");
  await generateSkybox(request({ size, depthSize: size, model: 3, variant: null, seed: 7, ...overrides }), dir, { pool: pool() });
  return dir;
}

describe("the ground round the camera", () => {
  it("has no seam: where the camera's flat top meets its flanks, the ground changes over rows, not at one", async () => {
    // The desert canyon's flat top ends on steep flanks. A crease there draws a line straight
    // across the panorama (a circle round the objects in the scene), ten times the texture's own change.
    const { ratio } = rowSeam(linearLuminance(await render({ prompt: "desert canyon at noon" })), -10, -85);
    expect(ratio).toBeLessThan(8);
  });

  it("near the nadir has texture at the scale of what stands on it, not blobs many pixels wide", async () => {
    // At 2048 x 1024 (a Model 4 background in development) a pixel under the camera is 6 mm wide.
    const dir = tempDir("quality");
    const big = { width: 2048, height: 1024 };
    await generateSkybox(request({ prompt: "alpine lake at sunset", size: big, model: 3, variant: null, seed: 7 }), dir, { pool: pool() });
    const img = linearLuminance(dir);
    // Blobs whose finest lattice spans ten pixels score about 0.002 to 0.005 here.
    expect(fineTexture(img, -60, -88)).toBeGreaterThan(0.008);
    expect(fineTexture(img, -40, -60)).toBeGreaterThan(0.012);
  });
});

describe("ridges against the sky", () => {
  it("are anti-aliased: along a slanted skyline the line moves a little every column, not a whole row every few", async () => {
    const rows = skylineRows(await render({ prompt: "alpine lake at sunset" }));
    const { share, columns } = stairShare(rows);
    expect(columns).toBeGreaterThan(30);
    // Drawn from pixel centres a third or more of the columns of such stretches do not move.
    expect(share).toBeLessThan(0.15);
  });
});

describe("Oil Painting (the painterly look) draws solid forms", () => {
  it("a desert canyon's mesas: the pixels under their skyline are mesa, not mesa blended with sky", async () => {
    const dir = await render({ prompt: "desert canyon at noon", look: "painterly" });
    const { blend, columns } = skyBlend(await readJpeg(dir), readDistance(dir));
    expect(columns).toBeGreaterThan(200);
    expect(blend).toBeLessThan(0.06);
  });

  it("an alpine lake's mountains likewise", async () => {
    const dir = await render({ prompt: "alpine lake at sunset", look: "painterly" });
    const { blend, columns } = skyBlend(await readJpeg(dir), readDistance(dir));
    expect(columns).toBeGreaterThan(100);
    expect(blend).toBeLessThan(0.12);
  });
});

describe("every style draws forms a scene can stand in", () => {
  it("Anime: its ridges meet the sky without a dark contour band (distant forms are not inked)", async () => {
    for (const prompt of ["alpine lake at sunset", "desert canyon at noon"]) {
      const dir = await render({ prompt, look: "anime" });
      const { darkness, columns } = skylineContour(await readJpeg(dir), readDistance(dir));
      expect(columns, prompt).toBeGreaterThan(100);
      // An inked skyline is near black (close to 1); a form's own dark strata just under it stay well under 0.2.
      expect(darkness, prompt).toBeLessThan(0.2);
    }
  });

  it("Low Poly: its sky is flat polygons following the sky's gradient, not a patchwork", async () => {
    for (const prompt of ["desert canyon at noon", "green hills at noon"]) {
      const photoDir = await render({ prompt });
      const photo = skyRoughness(await readJpeg(photoDir), readDistance(photoDir), 60, 15);
      const dir = await render({ prompt, look: "low-poly" });
      const rough = skyRoughness(await readJpeg(dir), readDistance(dir), 60, 15);
      expect(rough, prompt).toBeLessThan(3 * photo);
    }
  });

  it("Low Poly: a city at night is whole faces, dark or lit, not a speckle of windows and walls", async () => {
    const dir = await render({ prompt: "city at night", look: "low-poly" });
    // A facet is about 7 pixels across at this size: the pixel one facet down is on the
    // same face, in the same colour, more often than not.
    const { speckle, pixels, median, brightestTenth } = pieceSpeckle(await readJpeg(dir), readDistance(dir), 20, 0.5, 8);
    expect(pixels).toBeGreaterThan(5000);
    expect(speckle).toBeLessThan(0.6);
    // And the lit faces glow: the brightest tenth of the city is well above its median.
    expect(brightestTenth).toBeGreaterThan(1.8 * median);
  });

  it("Sci-Fi Neon: the ground round the camera, where objects stand, is not near black", async () => {
    for (const prompt of ["desert canyon at noon", "alpine lake at sunset"]) {
      const img = await readJpeg(await render({ prompt, look: "neon" }));
      // Near black there, objects standing on it and their shadows cannot be read.
      expect(meanDisplayLuma(img, -45, -88), prompt).toBeGreaterThan(28);
    }
  });
});
