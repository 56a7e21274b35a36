/**
 * A PhotoDome shown from a picture decoded off the main thread (`createImageBitmap`): given an
 * image element, the browser decodes it inside its upload, in the page's task.
 */
import { PhotoDome } from "@babylonjs/core/Helpers/photoDome.js";
import { Texture } from "@babylonjs/core/Materials/Textures/texture.js";
import type { Scene } from "@babylonjs/core/scene.js";
import { timedStep } from "./step-timing.ts";

/**
 * A dome of the picture in `blob`, decoded off the main thread.
 * @param name the dome's name
 * @param url the picture's blob URL (the texture cache's key)
 * @param blob the picture
 * @param options PhotoDome's options
 * @param scene the scene
 */
export async function createBitmapDome(name: string, url: string, blob: Blob, options: Omit<BitmapDomeOptions, "bitmap">, scene: Scene): Promise<PhotoDome> {
  const bitmap = await createImageBitmap(blob, { premultiplyAlpha: "none" });
  // One texImage2D of the decoded bitmap: a GPU step, the copy of its pixels.
  return timedStep("panorama-upload", () => new BitmapPhotoDome(name, url, { ...options, bitmap }, scene));
}

/** PhotoDome's options with the decoded picture. */
export interface BitmapDomeOptions {
  resolution: number;
  size: number;
  /** Only direct mapping: its texture is not inverted, so the bitmap needs no flip (WebGL ignores UNPACK_FLIP_Y for bitmaps). */
  useDirectMapping: true;
  faceForward: boolean;
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
