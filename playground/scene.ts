import { ArcRotateCamera } from "@babylonjs/core/Cameras/arcRotateCamera";
import type { Engine } from "@babylonjs/core/Engines/engine";
import { HemisphericLight } from "@babylonjs/core/Lights/hemisphericLight";
import { PBRMaterial } from "@babylonjs/core/Materials/PBR/pbrMaterial";
import { Color3 } from "@babylonjs/core/Maths/math.color";
import { Vector3 } from "@babylonjs/core/Maths/math.vector";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder";
import { CreateTorusKnot } from "@babylonjs/core/Meshes/Builders/torusKnotBuilder";
import { Scene } from "@babylonjs/core/scene";

/**
 * A scene worth lighting: PBR spheres from mirror to rough, a metallic knot and a ground.
 * Without a skybox it is lit by a dim hemispheric light only.
 */
export function createShowcaseScene(engine: Engine): Scene {
  const scene = new Scene(engine);
  const camera = new ArcRotateCamera("camera", -Math.PI / 2, 1.25, 9, new Vector3(0, 1, 0), scene);
  camera.lowerRadiusLimit = 3;
  camera.upperRadiusLimit = 40;
  camera.attachControl(true);
  const fill = new HemisphericLight("fill", new Vector3(0, 1, 0), scene);
  fill.intensity = 0.15;

  const roughness = [0, 0.15, 0.35, 0.6, 1];
  roughness.forEach((r, i) => {
    const sphere = CreateSphere(`sphere-${r}`, { diameter: 1, segments: 32 }, scene);
    sphere.position.set((i - 2) * 1.3, 0.5, 0);
    const material = new PBRMaterial(`pbr-${r}`, scene);
    material.albedoColor = i < 3 ? new Color3(0.95, 0.95, 0.95) : new Color3(0.8, 0.3, 0.2);
    material.metallic = i < 3 ? 1 : 0;
    material.roughness = r;
    sphere.material = material;
  });

  const knot = CreateTorusKnot("knot", { radius: 0.6, tube: 0.2, radialSegments: 128 }, scene);
  knot.position.set(0, 2.2, 0);
  const gold = new PBRMaterial("gold", scene);
  gold.albedoColor = new Color3(1, 0.78, 0.34);
  gold.metallic = 1;
  gold.roughness = 0.25;
  knot.material = gold;

  const ground = CreateGround("ground", { width: 12, height: 12 }, scene);
  const floor = new PBRMaterial("floor", scene);
  floor.albedoColor = new Color3(0.35, 0.35, 0.38);
  floor.metallic = 0;
  floor.roughness = 0.8;
  ground.material = floor;
  return scene;
}
