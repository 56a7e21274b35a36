import { readFileSync } from "node:fs";
import { validateBytes } from "gltf-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESH_QUALITIES } from "../../../../../src/api/reference.ts";
import { exportSkybox } from "../../../../../src/local/imagery/export/export-skybox.ts";
import { MESH_SEGMENTS, SKY_RADIUS } from "../../../../../src/local/imagery/export/mesh/mesh-glb-export.ts";
import { uOfDirection, vOfDirection } from "../../../../../src/api/panorama/panorama-directions.ts";
import { request } from "../export-request.ts";
import { makeStoredSkybox, type Fixture } from "../stored-skybox-fixture.ts";
import { removeTempDirs } from "../temp-dirs.ts";

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeStoredSkybox(512, 256);
});
afterAll(removeTempDirs);

interface Accessor {
  bufferView: number;
  componentType: number;
  count: number;
  type: string;
  min?: number[];
  max?: number[];
}

/** Parses a .glb independently: JSON chunk, BIN chunk, typed views of the accessors. */
function parseGlb(bytes: Buffer) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  expect(view.getUint32(0, true)).toBe(0x46546c67);
  expect(view.getUint32(8, true)).toBe(bytes.length);
  const jsonLength = view.getUint32(12, true);
  const json = JSON.parse(bytes.subarray(20, 20 + jsonLength).toString("utf8"));
  const binStart = 20 + jsonLength + 8;
  const bin = new Uint8Array(bytes.subarray(binStart)).slice();
  const read = (index: number): Float32Array | Uint16Array | Uint32Array => {
    const accessor = json.accessors[index] as Accessor;
    const bufferView = json.bufferViews[accessor.bufferView];
    const width = { SCALAR: 1, VEC2: 2, VEC3: 3 }[accessor.type]!;
    const Type = accessor.componentType === 5126 ? Float32Array : accessor.componentType === 5125 ? Uint32Array : Uint16Array;
    return new Type(bin.buffer, bufferView.byteOffset, accessor.count * width);
  };
  const primitive = json.meshes[0].primitives[0];
  return {
    json,
    positions: read(primitive.attributes.POSITION) as Float32Array,
    uvs: read(primitive.attributes.TEXCOORD_0) as Float32Array,
    indices: read(primitive.indices),
  };
}

async function glb(meshQuality: "low" | "medium" | "high" | "epic", depthScale?: number): Promise<Buffer> {
  return readFileSync((await exportSkybox(request(fixture.dir, { type: "3d-mesh-glb", meshQuality, depthScale }))).path);
}

describe("3d-mesh-glb", () => {
  it("is valid glTF (Khronos validator: 0 errors) with the vertex count of each quality", async () => {
    for (const { key } of MESH_QUALITIES) {
      const bytes = await glb(key);
      const report = await validateBytes(new Uint8Array(bytes));
      expect(report.issues.numErrors, JSON.stringify(report.issues.messages.slice(0, 5))).toBe(0);
      expect(report.issues.numWarnings, JSON.stringify(report.issues.messages.slice(0, 5))).toBe(0);
      const { json, positions, indices } = parseGlb(bytes);
      const { across, down } = MESH_SEGMENTS[key];
      expect(positions.length / 3).toBe((across + 1) * (down + 1));
      expect(indices instanceof Uint32Array).toBe(key === "epic");
      expect(json.extensionsUsed).toContain("KHR_materials_unlit");
      expect(json.images[0].mimeType).toBe("image/jpeg");
    }
  });

  it("faces every triangle towards the viewer at the centre", async () => {
    const { positions: p, indices } = parseGlb(await glb("low"));
    for (let t = 0; t < indices.length; t += 3) {
      const [a, b, c] = [indices[t]! * 3, indices[t + 1]! * 3, indices[t + 2]! * 3];
      const e1 = [p[b]! - p[a]!, p[b + 1]! - p[a + 1]!, p[b + 2]! - p[a + 2]!];
      const e2 = [p[c]! - p[a]!, p[c + 1]! - p[a + 1]!, p[c + 2]! - p[a + 2]!];
      const n = [e1[1]! * e2[2]! - e1[2]! * e2[1]!, e1[2]! * e2[0]! - e1[0]! * e2[2]!, e1[0]! * e2[1]! - e1[1]! * e2[0]!];
      // Counter-clockwise seen from the origin: the normal points back at the origin.
      expect(n[0]! * p[a]! + n[1]! * p[a + 1]! + n[2]! * p[a + 2]!).toBeLessThan(0);
    }
  });

  it("keeps directions (the centre view equals the panorama) and puts the sky at the full radius", async () => {
    const { positions: p, uvs } = parseGlb(await glb("low"));
    for (let k = 0; k < p.length / 3; k++) {
      const [x, y, z] = [p[k * 3]!, p[k * 3 + 1]!, p[k * 3 + 2]!];
      const v = uvs[k * 2 + 1]!;
      if (v === 0 || v === 1) continue;
      expect(vOfDirection(y / Math.hypot(x, y, z))).toBeCloseTo(v, 5);
      const u = uOfDirection(x, z);
      expect(Math.min(Math.abs(u - uvs[k * 2]!), 1 - Math.abs(u - uvs[k * 2]!))).toBeLessThan(1e-5);
      if (v < 0.45) expect(Math.hypot(x, y, z)).toBeCloseTo(SKY_RADIUS, 2);
    }
  });

  it("brings the ground inwards, more with a larger depthScale, nearer ground more", async () => {
    const relief = async (depthScale: number) => {
      const { positions: p, uvs } = parseGlb(await glb("low", depthScale));
      const radiusAtV = (target: number): number => {
        for (let k = 0; k < uvs.length / 2; k++)
          if (Math.abs(uvs[k * 2 + 1]! - target) < 1e-6) return Math.hypot(p[k * 3]!, p[k * 3 + 1]!, p[k * 3 + 2]!);
        throw new Error("no vertex row");
      };
      return { nearGround: radiusAtV(28 / 32), farGround: radiusAtV(17 / 32) };
    };
    const mild = await relief(3);
    const strong = await relief(10);
    expect(mild.nearGround).toBeLessThan(mild.farGround);
    expect(mild.farGround).toBeLessThan(SKY_RADIUS);
    expect(strong.nearGround).toBeLessThan(mild.nearGround * 0.7);
    expect(SKY_RADIUS / strong.nearGround).toBeGreaterThan(SKY_RADIUS / mild.nearGround + 1);
  });

  it("is deterministic", async () => {
    expect((await glb("medium", 5)).equals(await glb("medium", 5))).toBe(true);
  });
});
