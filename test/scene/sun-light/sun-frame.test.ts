/**
 * The sun's world direction follows the same conventions as the skybox's meshes: the
 * panorama's centre ahead (+Z left-handed, -Z right-handed), u = 0.75 at +X, and a rotation
 * turning it as a mesh turned by -rotation (what the background and the backdrop do).
 */
import { describe, expect, it } from "vitest";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Mesh } from "@babylonjs/core/Meshes/mesh.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { Scene } from "@babylonjs/core/scene.js";
import { directionOfUv } from "../../../src/api/panorama/panorama-directions.ts";
import { cubeDirection, worldDirection } from "../../../src/scene/sun-light/sun-frame.ts";

const uv = (u: number, v: number) => {
  const d = new Float64Array(3);
  directionOfUv(u, v, d);
  return Array.from(d);
};
const close = (a: Vector3, b: number[]) => expect(a.subtract(new Vector3(b[0], b[1], b[2])).length()).toBeLessThan(1e-6);

describe("sun directions in the scene", () => {
  it("puts the panorama's centre ahead of the default camera and u = 0.75 on its right, in either handedness", () => {
    close(worldDirection(uv(0.5, 0.5), false, 0), [0, 0, 1]);
    close(worldDirection(uv(0.5, 0.5), true, 0), [0, 0, -1]);
    close(worldDirection(uv(0.75, 0.5), false, 0), [1, 0, 0]);
    close(worldDirection(uv(0.75, 0.5), true, 0), [1, 0, 0]);
    close(worldDirection(uv(0.3, 0), false, 0), [0, 1, 0]);
    // The cube's own frame is the left-handed one whatever the scene.
    close(cubeDirection(uv(0.5, 0.5)), [0, 0, 1]);
  });

  it("turns as the skybox's meshes turn", () => {
    const scene = new Scene(new NullEngine());
    for (const rightHanded of [false, true]) {
      scene.useRightHandedSystem = rightHanded;
      for (const rotation of [0.3, Math.PI / 2, -2]) {
        const d = uv(0.62, 0.3);
        const root = new Mesh("root", scene);
        root.rotation.y = -rotation;
        const point = new Mesh("point", scene);
        point.parent = root;
        point.position = worldDirection(d, rightHanded, 0);
        point.computeWorldMatrix(true);
        close(worldDirection(d, rightHanded, rotation), point.getAbsolutePosition().asArray());
        root.dispose();
      }
    }
    scene.getEngine().dispose();
  });
});
