/**
 * The background's PhotoDome, made without holding the page: the picture decoded off the main
 * thread (`createImageBitmap`: given an image element, the browser decodes it inside its
 * upload, in the page's task), and the sphere's geometry made once. PhotoDome builds a sphere
 * and a half-dome mask of twice its segments each time (tens of thousands of vertices, 50 to
 * 300 ms on a loaded slow core); here the sphere is given, a unit sphere's geometry scaled to
 * the dome, and the mask, disabled and never shown in full 360 mode, gets the fewest segments.
 */
import { PhotoDome } from "@babylonjs/core/Helpers/photoDome.js";
import { Texture } from "@babylonjs/core/Materials/Textures/texture.js";
import { CreateSphereVertexData } from "@babylonjs/core/Meshes/Builders/sphereBuilder.js";
import { Mesh } from "@babylonjs/core/Meshes/mesh.js";
import type { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData.js";
import type { Scene } from "@babylonjs/core/scene.js";
import { timedStep } from "../scheduling/step-timing.ts";

/** Segments of the dome's sphere (PhotoDome's `resolution`). */
const DOME_SEGMENTS = 48;
/** The mask's resolution: PhotoDome makes it of twice this many segments; the fewest it takes. */
const MASK_RESOLUTION = 1;

/** A unit sphere seen from inside, made on first use: pure data, the same for every dome of every scene. */
let unitSphere: VertexData | null = null;

/** The next task: the page draws a frame between the dome's steps. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * A dome of the picture at `url`: with its `blob`, decoded off the main thread; without, a
 * texture the engine's texture cache holds under `url` (kept-parts.ts).
 * @param name the dome's name
 * @param url the picture's blob URL (the texture cache's key)
 * @param blob the picture, or undefined for a kept texture
 * @param size the dome's diameter
 * @param scene the scene
 */
export async function createDome(name: string, url: string, blob: Blob | undefined, size: number, scene: Scene): Promise<PhotoDome> {
  const bitmap = blob ? await createImageBitmap(blob, { premultiplyAlpha: "none" }) : null;
  // The sphere, the mesh and the dome each in a task of its own: together they held the page for 70 to 80 ms.
  const sphere = (unitSphere ??= timedStep("dome-sphere", () => CreateSphereVertexData({ segments: DOME_SEGMENTS, diameter: 1, sideOrientation: Mesh.BACKSIDE })));
  await nextTask();
  const mesh = timedStep("dome-mesh", () => {
    const mesh = new Mesh(`${name}_mesh`, scene);
    // A copy a mesh: its geometry keeps the arrays it is given.
    sphere.clone().applyToMesh(mesh);
    mesh.scaling.setAll(size);
    return mesh;
  });
  await nextTask();
  return timedStep("dome", () => {
    const options = { resolution: MASK_RESOLUTION, size, useDirectMapping: true, faceForward: false, mesh } as const;
    // With the bitmap, one texImage2D of it: a GPU step, the copy of its pixels.
    return bitmap ? new BitmapPhotoDome(name, url, { ...options, bitmap }, scene) : new PhotoDome(name, url, options, scene);
  });
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
    return timedStep("panorama-texture", () => new Texture(url, scene, {
      noMipmap: !options.generateMipMaps,
      invertY: false,
      buffer: options.bitmap,
      onLoad: () => this.onLoadObservable.notifyObservers(),
      onError: (message) => this.onLoadErrorObservable.notifyObservers(message || "Unknown error"),
    }));
  }
}
