/**
 * The Model 3 backdrop: the GLB mesh export (a depth-displaced sphere, unlit, textured with
 * the panorama) loaded from bytes with @babylonjs/loaders.
 *
 * Handedness: in a left-handed scene the glTF loader's `__root__` maps a glTF point (x, y, z)
 * to (-x, y, z), while the panorama's glTF frame has its centre at -Z and Babylon's
 * environment puts it at +Z: a half turn lines them up. A right-handed scene loads glTF
 * as is and its environment already has the centre at -Z.
 */
import type { AssetContainer } from "@babylonjs/core/assetContainer.js";
import { LoadAssetContainerAsync, SceneLoader } from "@babylonjs/core/Loading/sceneLoader.js";
import type { ISceneLoaderPlugin, ISceneLoaderPluginAsync } from "@babylonjs/core/Loading/sceneLoader.js";
import type { Observer } from "@babylonjs/core/Misc/observable.js";
import type { Nullable } from "@babylonjs/core/types.js";
import { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import { Mesh } from "@babylonjs/core/Meshes/mesh.js";
import type { Scene } from "@babylonjs/core/scene.js";
// Registers the glTF 2 loader and the .gltf/.glb scene loader plugin.
import "@babylonjs/loaders/glTF/2.0/glTFLoader.js";
import { registerBuiltInGLTFExtensions } from "@babylonjs/loaders/glTF/2.0/Extensions/dynamic.js";
import { registeredGLTFExtensions } from "@babylonjs/loaders/glTF/2.0/glTFLoaderExtensionRegistry.js";
import { EXPORT_SKY_RADIUS, placeBackdrop, SkyboxBackdrop } from "./backdrop.ts";
import { decodeGlbImagesOffThread } from "./glb-images.ts";

/**
 * Loads the GLB export as a backdrop, disabled until the part is enabled.
 * @param scene the scene
 * @param glb the file
 * @param name unique name of the root
 * @param radius sky radius in scene units, or null for the default
 * @param fileName the file's name, which names its textures in the engine's texture cache: a
 *   name unique to the file's content lets the load share textures kept from an earlier one
 */
export async function loadGlbBackdrop(
  scene: Scene,
  glb: Uint8Array,
  name: string,
  radius: number | null,
  fileName = name,
): Promise<SkyboxBackdrop> {
  // KHR_materials_unlit makes the export's material unlit; without the extensions the
  // material would be lit PBR. Registration replaces entries, so an app's own stays if present.
  if (!registeredGLTFExtensions.has("KHR_materials_unlit")) registerBuiltInGLTFExtensions();
  let container: AssetContainer;
  const observersBefore = new Set(scene.onDisposeObservable.observers);
  try {
    // From bytes the loader names the file at random; a File keeps its name, which the textures' URLs carry.
    const source = fileName === name ? glb : new File([glb as BlobPart], `${fileName}.glb`);
    // Its pictures decoded off the main thread, each then uploaded in one step (glb-images.ts).
    const pluginOptions = { gltf: { onParsed: decodeGlbImagesOffThread } };
    container = await withoutValidation(() =>
      LoadAssetContainerAsync(source, scene, { pluginExtension: ".glb", name: `${fileName}.glb`, pluginOptions }),
    );
  } catch (error) {
    throw new Error(`The GLB backdrop could not be loaded: ${(error as Error).message}`, { cause: error });
  }
  const containerObserver = findContainerObserver(scene, observersBefore);
  const root = new Mesh(name, scene);
  root.setEnabled(false);
  container.addAllToScene();
  for (const mesh of container.meshes) {
    mesh.isPickable = false;
    if (!mesh.parent) mesh.parent = root;
  }
  for (const node of container.transformNodes) if (!node.parent) node.parent = root;
  const owned = { meshes: [...container.meshes], materials: [...container.materials], textures: [...container.textures] };
  const release = () => {
    container.dispose();
    scene.onDisposeObservable.remove(containerObserver);
  };
  const part = new SkyboxBackdrop({ root, owned, yawOffset: scene.useRightHandedSystem ? 0 : Math.PI, release });
  placeBackdrop(scene, root, EXPORT_SKY_RADIUS, radius);
  part.setRotation(0);
  await new Promise<void>((resolve) => BaseTexture.WhenAllReady(owned.textures, resolve));
  return part;
}

/**
 * Runs one glTF load with validation off. The Inspector's glTF validation service turns
 * `validate` on for every glTF plugin it sees activated, and validating fetches
 * gltf_validator.js from Babylon's CDN: offline (or for a privacy-minded app) that is two
 * console errors on every apply. Our own export needs no validation. The observer is added
 * after the Inspector's, so it has the last word, and it leaves after the first glTF plugin
 * it sees: from bytes with a known extension, the loader activates it within the call.
 * `SceneLoader` is marked deprecated (9.25 to 9.35 alike) in favour of the module functions,
 * which have no form of this observable; the Inspector itself adds its observer there.
 */
async function withoutValidation<T>(load: () => Promise<T>): Promise<T> {
  const observer = SceneLoader.OnPluginActivatedObservable.add((plugin: ISceneLoaderPlugin | ISceneLoaderPluginAsync) => {
    if (plugin.name !== "gltf") return;
    (plugin as { validate?: boolean }).validate = false;
    observer.remove();
  });
  try {
    return await load();
  } finally {
    observer.remove();
  }
}

/**
 * An AssetContainer (Babylon 9.25) adds a scene.onDisposeObservable observer that its
 * dispose() never removes: it would keep every disposed backdrop in memory until the scene
 * goes. It is the observer added during the load whose callback checks `_wasAddedToScene`;
 * when none matches (another Babylon version) nothing is touched.
 */
function findContainerObserver(scene: Scene, before: ReadonlySet<Observer<Scene>>): Nullable<Observer<Scene>> {
  const added = scene.onDisposeObservable.observers.filter((o) => !before.has(o) && String(o.callback).includes("_wasAddedToScene"));
  return added.length === 1 ? added[0]! : null;
}
