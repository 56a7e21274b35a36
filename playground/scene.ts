import { ArcRotateCamera } from "@babylonjs/core/Cameras/arcRotateCamera";
import type { AbstractEngine } from "@babylonjs/core/Engines/abstractEngine";
import { DirectionalLight } from "@babylonjs/core/Lights/directionalLight";
import { HemisphericLight } from "@babylonjs/core/Lights/hemisphericLight";
import { ShadowGenerator } from "@babylonjs/core/Lights/Shadows/shadowGenerator";
import "@babylonjs/core/Lights/Shadows/shadowGeneratorSceneComponent";
import { BackgroundMaterial } from "@babylonjs/core/Materials/Background/backgroundMaterial";
import { PBRMaterial } from "@babylonjs/core/Materials/PBR/pbrMaterial";
import { RenderTargetTexture } from "@babylonjs/core/Materials/Textures/renderTargetTexture";
import { Color3 } from "@babylonjs/core/Maths/math.color";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { CreateDisc } from "@babylonjs/core/Meshes/Builders/discBuilder";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder";
import { CreateTorusKnot } from "@babylonjs/core/Meshes/Builders/torusKnotBuilder";
import type { Mesh } from "@babylonjs/core/Meshes/mesh";
import { Scene } from "@babylonjs/core/scene";

/** The showcase scene, and its own sun: the light a skybox's sun takes the place of (`sun.replaces`). */
export interface ShowcaseScene {
  scene: Scene;
  sun: DirectionalLight;
}

/**
 * A scene worth lighting: PBR spheres from mirror to rough and a metallic knot, standing
 * on a shadow catcher at y = 0 (where a grounded skybox puts its picture's ground). Without
 * a skybox it is lit by a dim hemispheric light only.
 */
export function createShowcaseScene(engine: AbstractEngine): ShowcaseScene {
  const scene = new Scene(engine);
  const camera = new ArcRotateCamera("camera", -Math.PI / 2, 1.25, 9, new Vector3(0, 1, 0), scene);
  camera.lowerRadiusLimit = 3;
  camera.upperRadiusLimit = 40;
  camera.attachControl(true);
  const fill = new HemisphericLight("fill", new Vector3(0, 1, 0), scene);
  fill.intensity = 0.15;

  const objects: Mesh[] = [];
  const roughness = [0, 0.15, 0.35, 0.6, 1];
  roughness.forEach((r, i) => {
    const sphere = CreateSphere(`sphere-${r}`, { diameter: 1, segments: 32 }, scene);
    sphere.position.set((i - 2) * 1.3, 0.5, 0);
    const material = new PBRMaterial(`pbr-${r}`, scene);
    material.albedoColor = i < 3 ? new Color3(0.95, 0.95, 0.95) : new Color3(0.8, 0.3, 0.2);
    material.metallic = i < 3 ? 1 : 0;
    material.roughness = r;
    sphere.material = material;
    objects.push(sphere);
  });

  const knot = CreateTorusKnot("knot", { radius: 0.6, tube: 0.2, radialSegments: 128 }, scene);
  knot.position.set(0, 2.2, 0);
  const gold = new PBRMaterial("gold", scene);
  gold.albedoColor = new Color3(1, 0.78, 0.34);
  gold.metallic = 1;
  gold.roughness = 0.25;
  knot.material = gold;
  objects.push(knot);
  return { scene, sun: addShadowCatcher(scene, objects) };
}

/**
 * Before a skybox, the objects stand on an invisible disc that shows only their soft
 * shadows. The shadows come from a light above that lights nothing else and are drawn
 * once: nothing moves. The disc goes with the light: once a skybox's sun takes the light's
 * place, the skybox's own ground (grounded, or the backdrop) receives the shadows.
 * @returns the light
 */
function addShadowCatcher(scene: Scene, casters: Mesh[]): DirectionalLight {
  const ground = CreateDisc("ground", { radius: 8, tessellation: 64 }, scene);
  ground.rotation.x = Math.PI / 2;
  ground.receiveShadows = true;
  ground.isPickable = false;
  const catcher = new BackgroundMaterial("shadow-catcher", scene);
  catcher.shadowOnly = true;
  catcher.primaryColor = new Color3(0.02, 0.02, 0.03);
  catcher.alpha = 0.55;
  ground.material = catcher;

  const sun = new DirectionalLight("shadow-light", new Vector3(-0.25, -1, 0.35), scene);
  sun.position = new Vector3(2.5, 10, -3.5);
  sun.includedOnlyMeshes = [ground];
  const shadows = new ShadowGenerator(1024, sun);
  shadows.useBlurExponentialShadowMap = true;
  shadows.blurKernel = 48;
  shadows.depthScale = 60;
  for (const mesh of casters) shadows.addShadowCaster(mesh);
  shadows.getShadowMap()!.refreshRate = RenderTargetTexture.REFRESHRATE_RENDER_ONCE;
  sun.onEnabledStateChangedObservable.add((enabled) => ground.setEnabled(enabled));
  return sun;
}
