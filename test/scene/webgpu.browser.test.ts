/**
 * `applySkybox` on a WebGPUEngine in Chromium (WebGPU on SwiftShader's Vulkan): lighting,
 * background, backdrop and the sun with its shadows, a re-apply from the memory cache and from
 * IndexedDB, and disposal, measured by the pixels as on WebGL. Babylon's materials compile
 * WGSL on WebGPU; the page gives the engine no path to glslang or twgsl, so a GLSL shader
 * would fail instead of fetching them, and every request leaving 127.0.0.1 is refused and
 * listed. WebGPU reports validation errors as "uncaptured error" warnings: there must be none.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Generation } from "../../src/api/index.ts";
import type { SceneSpec } from "../../src/local/imagery/scene/scene-spec.ts";
import {
  colourDistance,
  complete,
  DIRECTIONS,
  expectedDiffuse,
  expectedMirror,
  generate,
  hdrOf,
  openSceneFixture,
  panoramaOf,
  type HdrPanorama,
  type SceneFixture,
} from "./scene-fixture.ts";

let f: SceneFixture;
let desert: Generation;
let city: Generation;
let desertHdr: HdrPanorama;
/** The renderer's sun: panorama yaw (degrees) and elevation. */
let sunYaw: number;
let sunElevation: number;

// Where the spheres' centres face the camera (see scene-page.ts `spheres`).
const METAL_YAW = 169.6;
const ROUGH_YAW = 190.4;
const LIGHTING = { size: 64, quality: 32 };
const EVERYTHING = {
  lighting: LIGHTING,
  backdrop: { meshQuality: "low" as const },
  sun: { intensity: 10, shadowMapSize: 1024, resolution: "8K" as const },
};
const LIGHTING_ONLY = { lighting: LIGHTING, background: false as const, backdrop: false as const };
const luma = ([r, g, b]: number[]) => 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;

beforeAll(async () => {
  f = await openSceneFixture({ engine: "webgpu" });
  // Fixed seeds: a noon sun with its real energy dominates the diffuse light, and how close
  // Babylon's order-2 harmonics come to it depends on where the sun stands.
  const pending = await Promise.all([generate(f.client, "clear desert at noon", 3, 2), generate(f.client, "night city", 3, 2)]);
  [desert, city] = (await Promise.all(pending.map((g) => complete(f.client, g.id)))) as [Generation, Generation];
  desertHdr = await hdrOf(f.pages.url, f.client, desert);
  const spec = JSON.parse(readFileSync(join(f.pages.dataDir!, "generations", desert.obfuscated_id, "scene.json"), "utf8")) as SceneSpec;
  [sunYaw, sunElevation] = [spec.sun.azimuth, spec.sun.elevation];
  await f.page.evaluate(() => window.skyboxTest.clearCache());
}, 180_000);

afterAll(async () => {
  await f?.close();
});

/** Ground brightness near the cylinder, away from and towards the sun seen at `yaw`. */
async function shade(yaw: number) {
  const [away, towards] = await f.page.evaluate(
    (y) =>
      window.skyboxTest.ground([
        { yaw: y + 180, distance: 0.75 },
        { yaw: y, distance: 0.75 },
      ]),
    yaw,
  );
  return { away: luma(away!), towards: luma(towards!) };
}

describe("applySkybox on WebGPU", () => {
  test("the page runs a WebGPUEngine", async () => {
    expect(await f.page.evaluate(() => window.skyboxTest.engineInfo())).toMatchObject({ name: "WebGPU", isWebGPU: true });
  });

  test("lights PBR as the HDRI says, and the background shows the panorama in every direction", async () => {
    const applied = await f.page.evaluate(([id, o]) => window.skyboxTest.apply(id, { ...o, backdrop: false }), [
      desert.id,
      { lighting: LIGHTING },
    ] as const);
    expect(applied.environment).toBe("HDRCubeTexture");
    expect(applied.stages.map((s) => s.stage)).toContain("prefiltering");
    const spheres = await f.page.evaluate(() => window.skyboxTest.spheres());
    expect(colourDistance(spheres.rough, expectedDiffuse(desertHdr, ROUGH_YAW))).toBeLessThan(8);
    expect(colourDistance(spheres.metal, expectedMirror(desertHdr, METAL_YAW))).toBeLessThan(25);
    const pano = await panoramaOf(f.pages.url, desert);
    for (const [yaw, pitch] of DIRECTIONS) {
      const seen = await f.page.evaluate(([y, p]) => window.skyboxTest.look(y, p), [yaw, pitch] as const);
      expect(pano.distance(seen, yaw, pitch), `yaw ${yaw} pitch ${pitch}`).toBeLessThan(12);
    }
  });

  test("the backdrop lines up with the panorama, the sun shines from where it shows and its shadow falls away from it, all in WGSL", async () => {
    await f.page.evaluate(() => window.skyboxTest.stage(true));
    const applied = await f.page.evaluate(([id, o]) => window.skyboxTest.apply(id, o), [desert.id, EVERYTHING] as const);
    // Textured, as the pixels below show (through the sun's shadow-receiving materials).
    expect(applied.backdrop!.children.map((c) => c.vertices)).toEqual([65 * 33]);
    const sun = (await f.page.evaluate(([y, p]) => window.skyboxTest.sun(y, p), [sunYaw, sunElevation]))!;
    expect(sun.angle).toBeLessThan(2);
    expect(sun.generator).toBe("ShadowGenerator");
    expect(sun.receiving).toEqual([true, true]);
    const ground = await shade(sunYaw);
    expect(ground.away).toBeLessThan(0.85 * ground.towards);
    const languages = (await f.page.evaluate(() => window.skyboxTest.engineInfo())).shaderLanguages;
    expect(Object.keys(languages).some((m) => m.startsWith("BackgroundMaterial:"))).toBe(true);
    expect(Object.entries(languages).filter(([, language]) => (language as number) !== 1)).toEqual([]);
    await f.page.evaluate(() => window.skyboxTest.setVisible({ background: false }));
    const pano = await panoramaOf(f.pages.url, desert);
    for (const [yaw, pitch] of [
      [0, 10],
      [120, 15],
      [240, 10],
      [300, 15],
    ] as const) {
      const seen = await f.page.evaluate(([y, p]) => window.skyboxTest.look(y, p), [yaw, pitch] as const);
      expect(pano.distance(seen, yaw, pitch, 2), `backdrop, yaw ${yaw} pitch ${pitch}`).toBeLessThan(16);
    }
    await f.page.evaluate(() => window.skyboxTest.setVisible({ background: true }));
  });

  test("a re-apply takes everything from the memory cache, and the baked texels from IndexedDB light as before", async () => {
    const first = await f.page.evaluate(() => window.skyboxTest.describe());
    const shaded = await shade(sunYaw);
    await f.page.evaluate(([id, o]) => window.skyboxTest.apply(id, o), [city.id, EVERYTHING] as const);
    f.assetRequests.length = 0;
    const again = await f.page.evaluate(([id, o]) => window.skyboxTest.apply(id, o), [desert.id, EVERYTHING] as const);
    expect(f.assetRequests).toEqual([]);
    expect(again.fromCache).toBe(true);
    expect(again.textureWork).toEqual({});
    expect(again.gpuTextures).toEqual(first!.gpuTextures);
    const reshaded = await shade(sunYaw);
    expect(Math.abs(reshaded.away - shaded.away)).toBeLessThan(1);
    expect(Math.abs(reshaded.towards - shaded.towards)).toBeLessThan(1);

    await f.page.evaluate(() => window.skyboxTest.stage(false));
    const cold = await f.page.evaluate(([id, o]) => window.skyboxTest.apply(id, o), [desert.id, LIGHTING_ONLY] as const);
    const coldLit = await f.page.evaluate(() => window.skyboxTest.spheres());
    await f.page.evaluate(() => window.skyboxTest.whenCached());
    await f.page.evaluate(() => window.skyboxTest.clearMemory());
    const warm = await f.page.evaluate(([id, o]) => window.skyboxTest.apply(id, o), [desert.id, LIGHTING_ONLY] as const);
    expect([cold.fromCache, warm.fromCache]).toEqual([true, true]);
    expect(warm.environment).toBe("CubeTexture");
    expect(Object.keys(warm.textureWork).sort()).toEqual(["_uploadArrayBufferViewToTexture", "createRawCubeTexture"]);
    const warmLit = await f.page.evaluate(() => window.skyboxTest.spheres());
    expect(colourDistance(warmLit.rough, coldLit.rough)).toBeLessThan(1);
    expect(colourDistance(warmLit.metal, coldLit.metal)).toBeLessThan(1);
  });

  test("disposed, nothing of a skybox with every part stays", async () => {
    await f.page.evaluate(() => window.skyboxTest.disposeCurrent());
    await f.page.evaluate(() => window.skyboxTest.clearMemory());
    const baseline = await f.page.evaluate(() => window.skyboxTest.counts());
    const applied = await f.page.evaluate(([id, o]) => window.skyboxTest.apply(id, { ...o, cache: false }), [
      desert.id,
      EVERYTHING,
    ] as const);
    await f.page.evaluate(() => window.skyboxTest.spheres());
    expect((await f.page.evaluate(() => window.skyboxTest.counts())).lights).toBe(baseline.lights + 1);
    await f.page.evaluate(() => window.skyboxTest.disposeCurrent());
    await f.page.evaluate(() => window.skyboxTest.clearMemory());
    expect(await f.page.evaluate(() => window.skyboxTest.counts())).toEqual(baseline);
    expect(await f.page.evaluate((id) => window.skyboxTest.gpuTextureAlive(id), applied.gpuTextures.environment!)).toBe(false);
  });

  test("the grounded background, in WGSL, shows from its centre what the dome shows, with the sun on", async () => {
    const views = [
      [0, 20],
      [90, -30],
      [180, -60],
      [270, 0],
    ] as const;
    const look = async () => {
      const out: number[][] = [];
      for (const [y, p] of views) out.push(await f.page.evaluate(([yy, pp]) => window.skyboxTest.look(yy, pp, [0, 2, 0]), [y, p] as const));
      return out;
    };
    await f.page.evaluate(([id, o]) => window.skyboxTest.apply(id, { ...o, backdrop: false, cache: false }), [
      desert.id,
      { lighting: LIGHTING },
    ] as const);
    const dome = await look();
    const sun = { ...EVERYTHING.sun, intensity: 1 };
    await f.page.evaluate(([id, o]) => window.skyboxTest.apply(id, o), [
      desert.id,
      { lighting: LIGHTING, backdrop: false, cache: false, sun, background: { ground: true } },
    ] as const);
    const ground = await look();
    expect(Math.max(...views.map((_, k) => colourDistance(ground[k]!, dome[k]!)))).toBeLessThan(12);
    const languages = (await f.page.evaluate(() => window.skyboxTest.engineInfo())).shaderLanguages as Record<string, number>;
    const material = Object.entries(languages).find(([m]) => m.startsWith("BackgroundMaterial:") && m.includes("background"));
    expect(material?.[1]).toBe(1); // ShaderLanguage.WGSL
    await f.page.evaluate(() => window.skyboxTest.disposeCurrent());
  });

  test("no GPU validation error, no console error, no request leaving 127.0.0.1", () => {
    expect(f.consoleMessages.filter((m) => /uncaptured error|GPUValidationError|glslang|twgsl/i.test(m))).toEqual([]);
    expect(f.pageErrors).toEqual([]);
    expect(f.externalRequests).toEqual([]);
  });
});
