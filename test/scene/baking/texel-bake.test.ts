/**
 * The background bake of baked texels under NullEngine: it waits for a slice of time before
 * reading anything, reads every face of every mip once, stores halves and the harmonics, and
 * stops between faces once its signal aborts.
 */
import { Constants } from "@babylonjs/core/Engines/constants.js";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import { InternalTexture, InternalTextureSource } from "@babylonjs/core/Materials/Textures/internalTexture.js";
import { SphericalPolynomial } from "@babylonjs/core/Maths/sphericalPolynomial.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { Scene } from "@babylonjs/core/scene.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { decodeBakedTexels } from "../../../src/scene/baking/baked-texels.ts";
import type { IdleSlice } from "../../../src/scene/scheduling/idle-time.ts";
import { bakeTexels } from "../../../src/scene/baking/texel-bake.ts";
import { mipBatches } from "../../../src/scene/baking/texel-readback.ts";

let engine: NullEngine;
let scene: Scene;

beforeAll(() => {
  engine = new NullEngine();
  scene = new Scene(engine);
});
afterAll(() => engine.dispose());

/** A prefiltered 8-pixel cube whose faces read back as floats: face f of mip m is all `f + m / 10`. */
function environment(onRead: (face: number, mip: number) => void = () => {}) {
  const internal = new InternalTexture(engine, InternalTextureSource.CubeRaw);
  Object.assign(internal, {
    isCube: true,
    width: 8,
    height: 8,
    type: Constants.TEXTURETYPE_HALF_FLOAT,
    format: Constants.TEXTUREFORMAT_RGBA,
    isReady: true,
  });
  const texture = new BaseTexture(scene, internal);
  const polynomial = new SphericalPolynomial();
  polynomial.x = new Vector3(1, 2, 3);
  texture.sphericalPolynomial = polynomial;
  texture.lodGenerationScale = 0.8;
  texture.readPixels = (face = 0, mip = 0) => {
    onRead(face, mip);
    const side = 8 >> mip;
    return Promise.resolve(new Float32Array(side * side * 4).fill(face + mip / 10));
  };
  return texture;
}

/** Slices with no time left: the bake must wait again before every face. */
function counting() {
  const waits = { count: 0 };
  const wait = (signal: AbortSignal): Promise<IdleSlice> => {
    signal.throwIfAborted();
    waits.count++;
    return Promise.resolve({ timeRemaining: () => 0 });
  };
  return { waits, wait };
}

describe("bakeTexels", () => {
  test("reads every face of every mip once, as halves, with the harmonics and LOD settings", async () => {
    const reads: string[] = [];
    const { waits, wait } = counting();
    const bytes = await bakeTexels(
      environment((f, m) => reads.push(`${m}:${f}`)),
      new AbortController().signal,
      wait,
    );
    expect(reads).toHaveLength(4 * 6); // mips 8, 4, 2, 1
    expect(new Set(reads).size).toBe(24);
    expect(waits.count).toBe(1 + 24 + 1); // before starting, before each face, before laying the file out
    const { header, levels } = decodeBakedTexels(bytes);
    expect(header).toMatchObject({ size: 8, lodGenerationScale: 0.8, lodGenerationOffset: 0 });
    expect(header.polynomial[0]).toEqual([1, 2, 3]);
    expect(levels[0]![2]![0]).toBe(0x4000); // 2.0 as a half
    expect(levels[3]![1]!.length).toBe(4);
  });

  test("stops before the next face once its signal aborts, and reads nothing when aborted before", async () => {
    const controller = new AbortController();
    let reads = 0;
    const texture = environment(() => {
      if (++reads === 3) controller.abort(new Error("replaced"));
    });
    await expect(bakeTexels(texture, controller.signal, counting().wait)).rejects.toThrow("replaced");
    expect(reads).toBe(3);
    reads = 0;
    await expect(bakeTexels(texture, controller.signal, counting().wait)).rejects.toThrow("replaced");
    expect(reads).toBe(0);
  });
});

describe("mipBatches", () => {
  test("reads a 256 cube's whole chain at once, and a larger cube's big mips one read each", () => {
    expect(mipBatches(256, 9)).toEqual([[0, 1, 2, 3, 4, 5, 6, 7, 8]]);
    // 1024: mip 0 is 96 MiB of floats, mip 1 24 MiB, the rest 8 MiB together.
    expect(mipBatches(1024, 11)).toEqual([[0], [1], [2, 3, 4, 5, 6, 7, 8, 9, 10]]);
  });
});
