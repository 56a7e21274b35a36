/**
 * The background's PhotoDome, made without holding the page: the picture decoded off the main
 * thread (`createImageBitmap`: given an image element, the browser decodes it inside its
 * upload, in the page's task), and the dome's steps each in a task of their own. PhotoDome
 * builds a sphere and a half-dome mask of twice its segments (tens of thousands of vertices, 50
 * to 300 ms on a loaded slow core); here the sphere is given, of fewer segments, a unit
 * sphere's geometry scaled to the dome, and the mask, disabled and never shown in full 360
 * mode, gets the fewest segments. The domes of a scene share one unit sphere, a Babylon
 * `Geometry` the scene holds: a re-apply uploads no new vertices, and the last dome to go
 * disposes it (as the scene's disposal does).
 */
import { PhotoDome } from "@babylonjs/core/Helpers/photoDome.js";
import { Texture } from "@babylonjs/core/Materials/Textures/texture.js";
import { CreateSphereVertexData } from "@babylonjs/core/Meshes/Builders/sphereBuilder.js";
import { Geometry } from "@babylonjs/core/Meshes/geometry.js";
import { Mesh } from "@babylonjs/core/Meshes/mesh.js";
import type { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData.js";
import type { Scene } from "@babylonjs/core/scene.js";
import { timedStep } from "../scheduling/step-timing.ts";

/** Segments of the dome's sphere (PhotoDome's `resolution`). */
const DOME_SEGMENTS = 48;
/** The mask's resolution: PhotoDome makes it of twice this many segments; the fewest it takes. */
const MASK_RESOLUTION = 1;

/** The scene's unit sphere, seen from inside, that its domes share. */
const SPHERE_ID = "babylon-skybox-dome-sphere";

/**
 * The unit sphere's vertex data, made on first use and kept for the page: pure numbers, the
 * same for every dome of every scene, holding no GPU resource and nothing to dispose. Made
 * again for each apply (or each scene), its thousands of vertices take a task of their own
 * over 50 ms on a loaded slow core; what a scene holds is the Geometry made from a copy of it.
 */
let unitSphereData: VertexData | null = null;
const unitSphere = (): VertexData =>
  (unitSphereData ??= timedStep("dome-sphere", () =>
    CreateSphereVertexData({ segments: DOME_SEGMENTS, diameter: 1, sideOrientation: Mesh.BACKSIDE }),
  ));

/** The next task: the page draws a frame between the dome's steps. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** What a dome is made of. */
export interface DomeOptions {
  /** The dome's name. */
  name: string;
  /** The picture's blob URL (the texture cache's key). */
  url: string;
  /** The picture, or undefined for a texture the engine's texture cache holds under `url`. */
  blob: Blob | undefined;
  /** The dome's diameter. */
  size: number;
  scene: Scene;
}

/**
 * A dome of the picture at `url`: with its `blob`, decoded off the main thread; without, a
 * texture the engine's texture cache holds under `url` (kept-parts.ts). What it made is
 * disposed when a later step fails.
 * @param options the picture, the size and the scene
 */
export async function createDome(options: DomeOptions): Promise<PhotoDome> {
  const { name, url, blob, size, scene } = options;
  const bitmap = blob ? await createImageBitmap(blob, { premultiplyAlpha: "none" }) : null;
  let mesh: Mesh | null = null;
  try {
    // The sphere, the mesh and the dome each in a task of its own: together they exceed a long task's 50 ms.
    const sphere = unitSphere();
    await nextTask();
    mesh = timedStep("dome-mesh", () => {
      const mesh = new Mesh(`${name}_mesh`, scene);
      // Found again: the last dome may have gone (and its sphere with it) meanwhile.
      // A copy: a Geometry keeps the arrays it is given.
      (scene.getGeometryById(SPHERE_ID) ?? new Geometry(SPHERE_ID, scene, sphere.clone())).applyToMesh(mesh);
      mesh.scaling.setAll(size);
      return mesh;
    });
    await nextTask();
    const domeMesh = mesh;
    return timedStep("dome", () =>
      undoneOnFailure(scene, () => {
        const options = { resolution: MASK_RESOLUTION, size, useDirectMapping: true, faceForward: false, mesh: domeMesh } as const;
        // With the bitmap, one texImage2D of it: a GPU step, the copy of its pixels.
        return bitmap ? new BitmapPhotoDome(name, url, { ...options, bitmap }, scene) : new PhotoDome(name, url, options, scene);
      }),
    );
  } catch (error) {
    mesh?.dispose(false, true);
    bitmap?.close();
    throw error;
  }
}

/**
 * Runs `make`, and when it throws, disposes what it added to the scene: a constructor that
 * fails part-way (PhotoDome's: its node, material and texture made before the failing step)
 * leaves them registered with no one holding them. The half-made node is only removed: its
 * own `dispose` expects the parts it never made.
 */
function undoneOnFailure<T>(scene: Scene, make: () => T): T {
  const [nodes, meshes, materials, textures] = [
    scene.transformNodes.length,
    scene.meshes.length,
    scene.materials.length,
    scene.textures.length,
  ];
  try {
    return make();
  } catch (error) {
    for (const texture of scene.textures.slice(textures)) texture.dispose();
    for (const material of scene.materials.slice(materials)) material.dispose();
    for (const mesh of scene.meshes.slice(meshes)) mesh.dispose();
    for (const node of scene.transformNodes.slice(nodes)) scene.removeTransformNode(node);
    throw error;
  }
}

/** PhotoDome's options with the decoded picture. */
export interface BitmapDomeOptions {
  resolution: number;
  size: number;
  /** Only direct mapping: its texture is not inverted, so the bitmap needs no flip (WebGL ignores UNPACK_FLIP_Y for bitmaps). */
  useDirectMapping: true;
  faceForward: boolean;
  /** The sphere (PhotoDome makes one of `resolution` segments without it). */
  mesh?: Mesh;
  generateMipMaps?: boolean;
  bitmap: ImageBitmap;
}

/** A PhotoDome whose texture takes the decoded bitmap; its URL stays the texture's key in the engine's texture cache. */
export class BitmapPhotoDome extends PhotoDome {
  /**
   * @param name the dome's name
   * @param url the picture's blob URL (the texture cache's key; nothing loads from it)
   * @param options PhotoDome's options and the bitmap
   * @param scene the scene
   */
  constructor(name: string, url: string, options: BitmapDomeOptions, scene: Scene) {
    super(name, url, options, scene);
  }

  protected override _initTexture(url: string, scene: Scene, options: BitmapDomeOptions): Texture {
    return timedStep(
      "panorama-texture",
      () =>
        new Texture(url, scene, {
          noMipmap: !options.generateMipMaps,
          invertY: false,
          buffer: options.bitmap,
          onLoad: () => this.onLoadObservable.notifyObservers(),
          onError: (message) => this.onLoadErrorObservable.notifyObservers(message || "Unknown error"),
        }),
    );
  }
}
