/**
 * The sun part under Babylon's NullEngine: a light built hidden, shown with the skybox,
 * turned by its rotation, following the environment's intensity, balancing the environment
 * only on its own texture object and only while shown, shadows cast by the scene's meshes
 * (not the skybox's), and everything given back on disposal.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import { InternalTexture, InternalTextureSource } from "@babylonjs/core/Materials/Textures/internalTexture.js";
import { PBRMaterial } from "@babylonjs/core/Materials/PBR/pbrMaterial.js";
import { Texture } from "@babylonjs/core/Materials/Textures/texture.js";
import { SphericalPolynomial } from "@babylonjs/core/Maths/sphericalPolynomial.js";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder.js";
import { Scene } from "@babylonjs/core/scene.js";
import { SkyboxLighting } from "../../../src/scene/environment/lighting.ts";
import type { EnvironmentTexture } from "../../../src/scene/environment/environment-loader.ts";
import type { DetectedSun } from "../../../src/scene/analysis/detect-sun.ts";
import { SkyboxSun } from "../../../src/scene/sun-light/skybox-sun.ts";
import { resolveSun } from "../../../src/scene/sun-light/sun-options.ts";
import { worldDirection } from "../../../src/scene/sun-light/sun-frame.ts";

const SUN: DetectedSun = {
  direction: [0.5, Math.sqrt(3) / 2, 0],
  azimuth: Math.PI / 2,
  elevation: Math.PI / 3,
  color: [1, 0.9, 0.7],
  intensity: 0.04,
  illuminance: 0.036,
  solidAngle: 3e-4,
  source: "measured",
  confidence: 1,
  turbidity: null,
  disk: { sky: [0, 0, 0], pixels: [0.04 / 3e-4, 0.036 / 3e-4, 0.028 / 3e-4, 3e-4] },
};

let scene: Scene;
beforeEach(() => {
  scene = new Scene(new NullEngine());
});
afterEach(() => scene.getEngine().dispose());

/** An environment texture whose GPU texture carries harmonics (an ambient sky of 0.3 over pi). */
function environment(): EnvironmentTexture {
  const internal = new InternalTexture(scene.getEngine(), InternalTextureSource.Raw);
  internal.isReady = true;
  const polynomial = new SphericalPolynomial();
  polynomial.addAmbient({ r: 0.3, g: 0.3, b: 0.3 } as never);
  internal._sphericalPolynomial = polynomial;
  const texture = new BaseTexture(scene, internal) as EnvironmentTexture;
  texture.rotationY = 0;
  return texture;
}

function backdropMesh() {
  const mesh = CreateBox("backdrop", { size: 10 }, scene);
  const material = new PBRMaterial("backdrop-material", scene);
  material.unlit = true;
  material.albedoTexture = new Texture(null, scene);
  mesh.material = material;
  return mesh;
}

describe("SkyboxSun", () => {
  it("is a hidden light until shown, shines from the sun with its colour and irradiance, and turns with the skybox", () => {
    const lighting = new SkyboxLighting({ scene, texture: environment(), active: true, intensity: 1, fromCache: false });
    const sun = new SkyboxSun({
      scene,
      sun: SUN,
      options: resolveSun({ shadows: false })!,
      neighbours: { lighting, backdropMeshes: [], skyboxMeshes: [] },
      name: "sun",
    });
    expect(scene.lights).toContain(sun.light);
    expect(sun.light.isEnabled()).toBe(false);
    expect(sun.light.diffuse.asArray()).toEqual([1, 0.9, 0.7]);
    expect(sun.light.intensity).toBeCloseTo(0.04, 9);
    // Balanced, the light adds no highlight: the environment's reflections keep the sun.
    expect(sun.light.specular.asArray()).toEqual([0, 0, 0]);
    expect(sun.direction.subtract(worldDirection(SUN.direction, false, 0)).length()).toBeLessThan(1e-6);
    const changes: SkyboxSun[] = [];
    sun.onChangedObservable.add((s) => changes.push(s));
    sun.setRotation(Math.PI / 2);
    expect(sun.direction.subtract(worldDirection(SUN.direction, false, Math.PI / 2)).length()).toBeLessThan(1e-6);
    expect(sun.light.position.normalizeToNew().subtract(sun.direction).length()).toBeLessThan(1e-6);
    // It follows the environment's intensity and its own multiplier.
    lighting.intensity = 2;
    sun.refresh();
    expect(sun.light.intensity).toBeCloseTo(0.08, 9);
    sun.setEnabled(true);
    expect(sun.light.isEnabled()).toBe(true);
    expect(changes.length).toBe(3);
    sun.dispose();
    expect(scene.lights).not.toContain(sun.light);
    expect(changes.at(-1)?.isDisposed).toBe(true);
  });

  it("balances only the scene's environment object, only while shown, and never the harmonics on the GPU texture", () => {
    const texture = environment();
    const lighting = new SkyboxLighting({ scene, texture, active: true, intensity: 1, fromCache: false });
    const own = texture.sphericalPolynomial!;
    const shared = new BaseTexture(scene, texture.getInternalTexture());
    const sun = new SkyboxSun({
      scene,
      sun: SUN,
      options: resolveSun(true)!,
      neighbours: { lighting, backdropMeshes: [], skyboxMeshes: [] },
      name: "sun",
    });
    expect(texture.sphericalPolynomial).toBe(own);
    sun.setEnabled(true);
    const balanced = texture.sphericalPolynomial!;
    expect(balanced).not.toBe(own);
    // Less light from the sun's side, the same from the opposite side's ambient term at most.
    expect(balanced.y.x).toBeLessThan(own.y.x + 1e-12);
    expect(shared.sphericalPolynomial).toBe(own);
    expect(texture.getInternalTexture()!._sphericalPolynomial).toBe(own);
    sun.setEnabled(false);
    expect(texture.sphericalPolynomial).toBe(own);
    sun.setEnabled(true);
    sun.dispose();
    expect(texture.sphericalPolynomial).toBe(own);
    // Without balance, the environment is left whole and the light keeps its highlight.
    const unbalanced = new SkyboxSun({
      scene,
      sun: SUN,
      options: resolveSun({ balance: false })!,
      neighbours: { lighting, backdropMeshes: [], skyboxMeshes: [] },
      name: "sun2",
    });
    unbalanced.setEnabled(true);
    expect(texture.sphericalPolynomial).toBe(own);
    expect(unbalanced.light.specular.asArray()).toEqual([1, 0.9, 0.7]);
    unbalanced.dispose();
  });

  it("casts the scene's meshes' shadows, not the skybox's, onto the scene and the backdrop; disposal gives everything back", async () => {
    const lighting = new SkyboxLighting({ scene, texture: environment(), active: true, intensity: 1, fromCache: false });
    const box = CreateBox("box", {}, scene);
    const ground = CreateBox("ground", { width: 10, height: 0.1, depth: 10 }, scene);
    ground.receiveShadows = true;
    const backdrop = backdropMesh();
    const ownMaterial = backdrop.material;
    const sun = new SkyboxSun({
      scene,
      sun: SUN,
      options: resolveSun({ shadowMapSize: 512, cascaded: false })!,
      neighbours: { lighting, backdropMeshes: [backdrop], skyboxMeshes: [backdrop] },
      name: "sun",
    });
    const generator = sun.shadowGenerator!;
    expect(generator.getShadowMap()!.getSize().width).toBe(512);
    expect(sun.textures).toEqual([generator.getShadowMap()]);
    const predicate = generator.getShadowMap()!.renderListPredicate;
    expect(predicate(box)).toBe(true);
    expect(predicate(backdrop)).toBe(false);
    expect(box.receiveShadows).toBe(true);
    // A mesh added later receives too (Babylon announces it on the next tick).
    const later = CreateBox("later", {}, scene);
    await new Promise((r) => setTimeout(r, 0));
    expect(later.receiveShadows).toBe(true);
    expect(predicate(later)).toBe(true);
    // The backdrop shows its texture through a shadow-receiving material while the sun shines.
    expect(backdrop.material).toBe(ownMaterial);
    sun.setEnabled(true);
    expect(backdrop.material?.getClassName()).toBe("BackgroundMaterial");
    expect(backdrop.receiveShadows).toBe(true);
    expect(sun.materials).toEqual([backdrop.material]);
    sun.setEnabled(false);
    expect(backdrop.material).toBe(ownMaterial);
    sun.setEnabled(true);
    const textures = scene.textures.length;
    const materials = scene.materials.length;
    sun.dispose();
    expect(backdrop.material).toBe(ownMaterial);
    expect([box.receiveShadows, later.receiveShadows, ground.receiveShadows]).toEqual([false, false, true]);
    expect(scene.textures.length).toBe(textures - 1);
    expect(scene.materials.length).toBe(materials - 1);
    expect(sun.textures).toEqual([]);
    expect(scene.onNewMeshAddedObservable.hasObservers()).toBe(false);
  });

  it("falls back to a standard shadow generator where the engine has no cascades (the browser test makes a cascaded one)", () => {
    const sun = new SkyboxSun({
      scene,
      sun: SUN,
      options: resolveSun({ cascaded: true, shadowMapSize: 256 })!,
      neighbours: { lighting: null, backdropMeshes: [], skyboxMeshes: [] },
      name: "sun",
    });
    expect(sun.shadowGenerator?.getClassName()).toBe("ShadowGenerator");
    // No environment: the light has the sun's irradiance as it is.
    expect(sun.light.intensity).toBeCloseTo(0.04, 9);
    sun.dispose();
  });
});
