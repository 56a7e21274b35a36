import { describe, expect, it } from "vitest";
import { allocateOutputs, allocateScratch, hitAt } from "../../../../../src/local/imagery/pipeline/render-buffers.ts";
import { sceneFromPrompt } from "../../../../../src/local/imagery/prompt/prompt-scene.ts";
import { imageFlatTop, prepareScene } from "../../../../../src/local/imagery/scene/prepare-scene.ts";
import { flatTop, marchColumns, NO_HIT } from "../../../../../src/local/imagery/scene/terrain/terrain-march.ts";

const scene = (prompt: string) =>
  sceneFromPrompt({ prompt, negativeText: null, seed: 3, look: "photoreal", model: 4, variant: "standard", softLines: false });

const W = 256;
const H = 128;

describe("the camera's flat top", () => {
  for (const prompt of ["alpine lake at sunset with snowy mountains", "desert canyon at noon", "green hills at noon", "city at night"]) {
    it(`holds, in every column of its rows, the distance the march writes there: ${prompt}`, () => {
      const P = prepareScene(scene(prompt), W, H);
      const top = flatTop(P.terrain, H);
      // Steep rays below the horizon land on it: a good share of the rows, none above the horizon.
      expect(top.row).toBeGreaterThan(H / 2);
      expect(top.row).toBeLessThan(0.8 * H);
      const hits = new Float32Array(W * H);
      marchColumns(P.terrain, W, H, 0, W, hits);
      for (let y = top.row; y < H; y++) for (let x = 0; x < W; x++) expect(hits[y * W + x]).toBe(top.distances[y]);
      // The row above it is the march's own: not the same in every column.
      const above = hits.subarray((top.row - 1) * W, top.row * W);
      expect(new Set(above).size).toBeGreaterThan(1);
    });
  }

  it("is known before the workers prepare the scene, equal to theirs", () => {
    const spec = scene("alpine lake at sunset with snowy mountains");
    const fromSpec = imageFlatTop(spec, H);
    const prepared = flatTop(prepareScene(spec, W, H).terrain, H);
    expect(fromSpec.row).toBe(prepared.row);
    expect(fromSpec.distances).toEqual(prepared.distances);
  });

  it("leaves its rows out of a render's scratch: the hit distances and the water's weights stop where it starts", () => {
    const spec = scene("alpine lake at sunset with snowy mountains");
    const top = imageFlatTop(spec, H);
    expect(top.dry).toBe(true);
    const outputs = allocateOutputs({ width: W, height: H, depthWidth: 64, depthHeight: 32 });
    const scratch = allocateScratch(outputs, {
      finishInPlace: true,
      outlines: false,
      reflectionRows: [H / 2, top.row],
      sunRows: [0, 0],
      flatTop: top,
    });
    expect(scratch.hit.row).toBe(top.row);
    expect(scratch.hit.data.byteLength).toBe(top.row * W * 4);
    expect(scratch.hit.data.byteLength).toBeLessThan(0.8 * W * H * 4);
  });

  it("is none in open space", () => {
    const P = prepareScene(scene("outer space nebula with planets"), W, H);
    expect(P.open).toBe(true);
    expect(flatTop(P.terrain, H).row).toBe(H);
  });
});

describe("the image's sparse march", () => {
  it("leaves the sky unwritten (its memory untouched), and the hits read as the full march's", () => {
    const P = prepareScene(scene("alpine lake at sunset with snowy mountains"), W, H);
    const top = flatTop(P.terrain, H);
    const full = new Float32Array(W * H);
    marchColumns(P.terrain, W, H, 0, W, full);
    const sparse = new Float32Array(W * top.row);
    marchColumns(P.terrain, W, H, 0, W, sparse, undefined, true);
    const hits = { data: sparse, row: top.row, flat: top.distances };
    let sky = 0;
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const i = y * W + x;
        expect(hitAt(hits, i, y)).toBe(full[i]);
        if (y < top.row && full[i] === NO_HIT) {
          expect(sparse[i]).toBe(0);
          sky++;
        }
      }
    }
    // The sky above the mountains: most of the rows the buffer keeps.
    expect(sky).toBeGreaterThan(0.5 * W * top.row);
  });
});
