/**
 * The `.env` file written on the CPU: Babylon's own reader takes its manifest and cuts its
 * images where they are, each image is a PNG of the face's RGBD texels as Babylon's
 * `toRGBD` makes them, top row first as Babylon's bake writes them (the texels are bottom
 * row first, as read back), and decoding RGBD gives the texels back within the format's precision.
 */
import { SphericalPolynomial } from "@babylonjs/core/Maths/sphericalPolynomial.js";
import { CreateRadianceImageDataArrayBufferViews, GetEnvInfo } from "@babylonjs/core/Misc/environmentTextureTools.pure.js";
import { ToHalfFloat } from "@babylonjs/core/Misc/halfFloat.js";
import { PNG } from "pngjs";
import { describe, expect, test } from "vitest";
import { mipCount, type TexelLevels } from "../../../src/scene/baking/baked-texels.ts";
import { encodeEnvFile } from "../../../src/scene/baking/env-file.ts";
import { encodePngRgba } from "../../../src/scene/baking/png-rgba.ts";
import { seededRandom } from "../../helpers/seeded-random.ts";

const SIZE = 16;

/** A uniform number in [0, 1) from the seeded generator. */
function uniform(seed: number): () => number {
  const random = seededRandom(seed);
  return () => random(1 << 30) / (1 << 30);
}

/** A cube whose texels span what a sky holds: from black through white to a sun 200 times brighter. */
function texels(random: () => number): { levels: TexelLevels; floats: Float32Array[][] } {
  const floats: Float32Array[][] = [];
  for (let mip = 0; mip < mipCount(SIZE); mip++) {
    const faces: Float32Array[] = [];
    for (let face = 0; face < 6; face++) {
      const side = Math.max(1, SIZE >> mip);
      const f = new Float32Array(side * side * 4);
      for (let i = 0; i < f.length; i++) f[i] = i % 4 === 3 ? 1 : random() < 0.05 ? 200 * random() : 2 * random() ** 2;
      faces.push(f);
    }
    floats.push(faces);
  }
  return { floats, levels: floats.map((faces) => faces.map((f) => Uint16Array.from(f, (v) => ToHalfFloat(v)))) };
}

function polynomial(): SphericalPolynomial {
  return SphericalPolynomial.FromArray(Array.from({ length: 9 }, (_, i) => [i, i + 0.5, -i]));
}

describe("encodeEnvFile", () => {
  test("writes a manifest Babylon's reader takes, and faces that decode back to the texels within RGBD's precision", async () => {
    const random = uniform(7);
    const { levels, floats } = texels(random);
    const bytes = await encodeEnvFile({ size: SIZE, lodGenerationScale: 0.8, polynomial: polynomial(), gammaSpace: false }, levels);
    const info = GetEnvInfo(bytes)!;
    expect(info.version).toBe(2);
    expect(info.width).toBe(SIZE);
    expect(info.imageType).toBe("image/png");
    expect(info.specular.lodGenerationScale).toBe(0.8);
    expect(info.irradiance!.yz).toEqual([6, 6.5, -6]);
    const images = CreateRadianceImageDataArrayBufferViews(bytes, info);
    expect(images.length).toBe(mipCount(SIZE));
    let worst = 0;
    images.forEach((faces, mip) =>
      faces.forEach((image, face) => {
        const png = PNG.sync.read(Buffer.from(image.buffer, image.byteOffset, image.byteLength));
        expect(png.width).toBe(Math.max(1, SIZE >> mip));
        const want = floats[mip]![face]!;
        const stride = png.width * 4;
        for (let i = 0; i < want.length; i += 4) {
          // The PNG's row y holds the texels' row side - 1 - y.
          const p = (png.height - 1 - Math.floor(i / stride)) * stride + (i % stride);
          const d = png.data[p + 3]! / 255;
          // RGBD shares one divider among the channels: its precision is relative to the brightest.
          const brightest = Math.max(want[i]!, want[i + 1]!, want[i + 2]!, 0.02);
          for (let c = 0; c < 3; c++) {
            // RGBD as Babylon's fromRGBD reads it: gamma-decoded colour over D.
            const got = Math.pow(png.data[p + c]! / 255, 2.2) / d;
            const v = want[i + c]!;
            worst = Math.max(worst, Math.abs(got - v) / brightest);
          }
        }
      }),
    );
    // 8 bits in gamma space: a few percent of the brightest channel at worst; halves add a tenth of a percent.
    expect(worst).toBeLessThan(0.03);
    expect(worst).toBeGreaterThan(0);
  });
});

describe("encodePngRgba", () => {
  test("writes the bytes as given, alpha included (no premultiplication), row after row", () => {
    const random = seededRandom(3);
    const rgba = Uint8Array.from({ length: 5 * 3 * 4 }, () => random(256));
    const png = PNG.sync.read(Buffer.from(encodePngRgba(5, 3, rgba)));
    expect([png.width, png.height]).toEqual([5, 3]);
    expect([...png.data]).toEqual([...rgba]);
  });

  test("names the mismatch when the bytes do not fill the picture", () => {
    expect(() => encodePngRgba(4, 4, new Uint8Array(10))).toThrow("encodePngRgba: 10 bytes for 4 x 4 RGBA");
  });
});
