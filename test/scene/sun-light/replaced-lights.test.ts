/**
 * `sun.replaces` under Babylon's NullEngine: the scene's own lights go off, shadows and all,
 * while a skybox's sun is shown, come back as they were when it is hidden or disposed, and a
 * replacing skybox holds them over (shown before the replaced one goes): never back on in
 * between, so no frame lights the scene with two suns.
 */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { DirectionalLight } from "@babylonjs/core/Lights/directionalLight.js";
import { PointLight } from "@babylonjs/core/Lights/pointLight.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { Scene } from "@babylonjs/core/scene.js";
import { AppliedSkybox } from "../../../src/scene/applied-skybox.ts";
import { Observable } from "@babylonjs/core/Misc/observable.js";
import { ReplacedLights, replacedLights } from "../../../src/scene/sun-light/replaced-lights.ts";
import { resolveSun } from "../../../src/scene/sun-light/sun-options.ts";
import type { Generation } from "../../../src/api/index.ts";

let scene: Scene;
let own: DirectionalLight;
let lamp: PointLight;
beforeEach(() => {
  scene = new Scene(new NullEngine());
  own = new DirectionalLight("own", new Vector3(0, -1, 0), scene);
  lamp = new PointLight("lamp", Vector3.Up(), scene);
  lamp.shadowEnabled = false;
});
afterEach(() => scene.getEngine().dispose());

/** A skybox handle with no parts but the replaced lights (the sun may be found or not: they go either way). */
const skybox = (lights: ReplacedLights | null) => {
  const applied = new AppliedSkybox({
    scene,
    record: { id: 1 } as Generation,
    parts: { lighting: null, background: null, backdrop: null, sun: null, replaced: lights },
    progress: new Observable(),
    rotation: 0,
    whenCached: Promise.resolve(),
  });
  applied._show();
  return applied;
};
const state = (l: DirectionalLight | PointLight) => [l.isEnabled(false), l.shadowEnabled];

describe("the lights a skybox's sun replaces", () => {
  test("are off while the sun is shown, even when the sky has no sun, and back as they were when hidden or disposed", () => {
    const sky = skybox(replacedLights(resolveSun({ replaces: [own, lamp] })!.replaces));
    expect([state(own), state(lamp)]).toEqual([
      [false, false],
      [false, false],
    ]);
    sky.setVisible({ sun: false });
    expect([state(own), state(lamp)]).toEqual([
      [true, true],
      [true, false],
    ]);
    sky.setVisible({ sun: true });
    expect(state(own)).toEqual([false, false]);
    sky.dispose();
    expect([state(own), state(lamp)]).toEqual([
      [true, true],
      [true, false],
    ]);
  });

  test("a replacing skybox holds them over: off through the replacement, back only when the last lets go", () => {
    const first = skybox(new ReplacedLights([own]));
    const second = skybox(new ReplacedLights([own]));
    first.dispose();
    expect(state(own)).toEqual([false, false]);
    second.dispose();
    expect(state(own)).toEqual([true, true]);
  });

  test("a light the application had switched off stays off", () => {
    own.setEnabled(false);
    skybox(new ReplacedLights([own])).dispose();
    expect(own.isEnabled(false)).toBe(false);
  });

  test("none named, none held; anything but lights is refused, naming the field", () => {
    expect(replacedLights(resolveSun(true)!.replaces)).toBeNull();
    expect(() => resolveSun({ replaces: [{}] })).toThrow("applySkybox: sun.replaces.0: must be a Babylon Light");
    expect(() => resolveSun({ replaces: own })).toThrow("sun.replaces: ");
  });
});
