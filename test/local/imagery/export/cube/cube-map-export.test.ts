import { readFileSync } from "node:fs";
import { unzipSync } from "fflate";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PanoramaToCubeMapTools } from "@babylonjs/core/Misc/HighDynamicRange/panoramaToCubemap.js";
import { exportSkybox } from "../../../../../src/local/imagery/export/export-skybox.ts";
import { FACE_NAMES, faceDirection, rotateQuarter, type FaceName } from "../../../../../src/local/imagery/export/cube/cube-faces.ts";
import { request } from "../export-request.ts";
import { makeStoredSkybox, radianceAt, SUN, toneMap, type Fixture } from "../stored-skybox-fixture.ts";
import { removeTempDirs } from "../temp-dirs.ts";

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeStoredSkybox(512, 256);
});
afterAll(removeTempDirs);

async function decodeFaces(zip: Uint8Array): Promise<Map<string, { size: number; rgb: Uint8Array }>> {
  const faces = new Map<string, { size: number; rgb: Uint8Array }>();
  for (const [name, png] of Object.entries(unzipSync(zip))) {
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    expect(info.format).toBe("raw");
    expect(info.width).toBe(info.height);
    expect(info.channels).toBe(3);
    faces.set(name, { size: info.width, rgb: new Uint8Array(data) });
  }
  return faces;
}

const size = { width: 256, height: 128 };

describe("cube-map-default-png", () => {
  it("zips six square PNG faces px..nz of width / 4, deterministically", async () => {
    const result = await exportSkybox(request(fixture.dir, { type: "cube-map-default-png", size }));
    expect(result.path.endsWith(".zip")).toBe(true);
    expect(result.contentType).toBe("application/zip");
    const zip = readFileSync(result.path);
    const faces = await decodeFaces(zip);
    expect([...faces.keys()]).toEqual(FACE_NAMES.map((f) => `${f}.png`));
    for (const face of faces.values()) expect(face.size).toBe(64);
    const again = readFileSync((await exportSkybox(request(fixture.dir, { type: "cube-map-default-png", size }))).path);
    expect(again.equals(zip)).toBe(true);
  });

  it("shows at every face texel the colour of the analytic sky in that direction", async () => {
    const faces = await decodeFaces(readFileSync((await exportSkybox(request(fixture.dir, { type: "cube-map-default-png", size }))).path));
    for (const name of FACE_NAMES) {
      const { size: n, rgb } = faces.get(`${name}.png`)!;
      const errors: number[] = [];
      for (let j = 4; j < n; j += 8) {
        for (let i = 4; i < n; i += 8) {
          const d = faceDirection(name, (i + 0.5) / n, (j + 0.5) / n);
          const len = Math.hypot(...d);
          const expected = radianceAt(d.map((c) => c / len)).map(toneMap);
          for (let c = 0; c < 3; c++) errors.push(Math.abs(rgb[(j * n + i) * 3 + c]! - expected[c]!));
        }
      }
      errors.sort((a, b) => a - b);
      // Edges (horizon, sun rim) blur when resampled: judge the bulk of the texels.
      expect(errors[Math.floor(errors.length * 0.9)]!, name).toBeLessThan(12);
    }
  });

  it("puts the sun on +X (px), 20 degrees up, where Babylon expects it", async () => {
    const faces = await decodeFaces(readFileSync((await exportSkybox(request(fixture.dir, { type: "cube-map-default-png", size }))).path));
    const { size: n, rgb } = faces.get("px.png")!;
    let best = { i: 0, j: 0, value: -1 };
    for (let j = 0; j < n; j++)
      for (let i = 0; i < n; i++) if (rgb[(j * n + i) * 3]! > best.value) best = { i, j, value: rgb[(j * n + i) * 3]! };
    expect(best.value).toBeGreaterThan(245);
    expect(Math.abs((best.i + 0.5) / n - 0.5)).toBeLessThan(0.1);
    expect(Math.abs((best.j + 0.5) / n - (0.5 - Math.tan((SUN.elevationDeg * Math.PI) / 180) / 2))).toBeLessThan(0.1);
  });

  it("matches Babylon's own panorama-to-cube conversion (EquiRectangularCubeTexture)", async () => {
    const faces = await decodeFaces(readFileSync((await exportSkybox(request(fixture.dir, { type: "cube-map-default-png", size }))).path));
    const babylon = PanoramaToCubeMapTools.ConvertPanoramaToCubemap(Float32Array.from(fixture.imageRgb), fixture.width, fixture.height, 64);
    const babylonName: Record<FaceName, "right" | "left" | "up" | "down" | "front" | "back"> = {
      px: "right",
      nx: "left",
      py: "up",
      ny: "down",
      pz: "front",
      nz: "back",
    };
    for (const name of FACE_NAMES) {
      const ours = faces.get(`${name}.png`)!.rgb;
      const theirs = babylon[babylonName[name]] as Float32Array;
      let sum = 0;
      for (let i = 0; i < ours.length; i++) sum += Math.abs(ours[i]! - theirs[i]!);
      expect(sum / ours.length, name).toBeLessThan(4);
    }
  });
});

describe("cube-map-roblox-png", () => {
  it("names the faces Skybox_Bk..Up and maps them from the Babylon faces", async () => {
    const roblox = await decodeFaces(readFileSync((await exportSkybox(request(fixture.dir, { type: "cube-map-roblox-png", size }))).path));
    expect([...roblox.keys()].sort()).toEqual(["Bk", "Dn", "Ft", "Lf", "Rt", "Up"].map((s) => `Skybox_${s}.png`));
    const cube = await decodeFaces(readFileSync((await exportSkybox(request(fixture.dir, { type: "cube-map-default-png", size }))).path));
    const same = (a: string, b: Uint8Array): void => expect(Buffer.from(roblox.get(a)!.rgb).equals(Buffer.from(b)), a).toBe(true);
    same("Skybox_Ft.png", cube.get("pz.png")!.rgb);
    same("Skybox_Bk.png", cube.get("nz.png")!.rgb);
    same("Skybox_Rt.png", cube.get("px.png")!.rgb);
    same("Skybox_Lf.png", cube.get("nx.png")!.rgb);
    same("Skybox_Up.png", rotateQuarter(cube.get("py.png")!.rgb, 64, 1));
    same("Skybox_Dn.png", rotateQuarter(cube.get("ny.png")!.rgb, 64, -1));
  });

  it("turns quarter images the stated way", () => {
    // 2x2 image: a b / c d. Clockwise: c a / d b. Counter-clockwise: b d / a c.
    const img = Uint8Array.from([1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]);
    expect(Array.from(rotateQuarter(img, 2, 1).filter((_, i) => i % 3 === 0))).toEqual([3, 1, 4, 2]);
    expect(Array.from(rotateQuarter(img, 2, -1).filter((_, i) => i % 3 === 0))).toEqual([2, 4, 1, 3]);
  });
});
