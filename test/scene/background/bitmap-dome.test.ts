/**
 * The background's dome under NullEngine: its steps run a task apart, and a step that fails
 * (the PhotoDome's texture cannot be made) leaves nothing of the dome in the scene; the
 * domes of a scene share one sphere, which the last to go disposes.
 */
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { PhotoDome } from "@babylonjs/core/Helpers/photoDome.js";
import { Scene } from "@babylonjs/core/scene.js";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { createDome } from "../../../src/scene/background/bitmap-dome.ts";

const URL = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

let engine: NullEngine;
let scene: Scene;

beforeEach(() => {
  engine = new NullEngine();
  scene = new Scene(engine);
});

afterEach(() => {
  vi.restoreAllMocks();
  scene.dispose();
  engine.dispose();
});

describe("createDome", () => {
  test("leaves no mesh, geometry or texture behind when the PhotoDome cannot be made", async () => {
    const failure = new Error("no texture");
    vi.spyOn(PhotoDome.prototype as unknown as { _initTexture: () => never }, "_initTexture").mockImplementation(() => {
      throw failure;
    });
    await expect(createDome({ name: "sky", url: URL, blob: undefined, size: 100, scene })).rejects.toBe(failure);
    expect(scene.meshes.map((m) => m.name)).toEqual([]);
    expect(scene.geometries).toEqual([]);
    expect(scene.transformNodes.map((n) => n.name)).toEqual([]);
    expect(scene.materials.map((m) => m.name)).toEqual([]);
    expect(scene.textures.map((t) => t.name)).toEqual([]);
  });

  test("shares the scene's unit sphere between domes: disposing one leaves the other whole, the last one disposes it", async () => {
    const first = await createDome({ name: "a", url: URL, blob: undefined, size: 100, scene });
    const second = await createDome({ name: "b", url: URL, blob: undefined, size: 50, scene });
    expect(first.mesh.geometry).not.toBeNull();
    expect(second.mesh.geometry).toBe(first.mesh.geometry);
    const vertices = second.mesh.getTotalVertices();
    expect(vertices).toBeGreaterThan(1000);
    first.dispose(false, true);
    expect(second.mesh.getTotalVertices()).toBe(vertices);
    expect([first.mesh.scaling.x, second.mesh.scaling.x]).toEqual([100, 50]);
    second.dispose(false, true);
    expect(scene.meshes).toEqual([]);
    expect(scene.geometries).toEqual([]);
  });
});
