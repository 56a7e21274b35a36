/**
 * The pictures of a GLB decoded off the main thread. Babylon's glTF loader hands an image's
 * bytes to the engine, which decodes them in an image element and uploads the element: the
 * decode lands in the main-thread task of the upload. Given an ImageBitmap instead, the engine
 * uploads it as it is, in one step.
 *
 * The loader keeps each image's pending bytes in `image._data` (glTFLoaderInterfaces.d.ts)
 * and reads them only when that is empty; filled here, as soon as the file is
 * parsed, with a bitmap `createImageBitmap` decodes in the browser's own threads. The texture
 * takes it through `updateURL(dataUrl, bitmap)`, whose bitmap path needs no flip: glTF
 * textures are not inverted.
 */
import type { IGLTFLoaderData } from "@babylonjs/loaders/glTF/glTFFileLoader.js";
import type { IBufferView, IImage } from "@babylonjs/loaders/glTF/2.0/glTFLoaderInterfaces.js";

/** The part of a parsed glTF this reads. */
interface ParsedGltf {
  images?: IImage[];
  bufferViews?: IBufferView[];
}

/**
 * Starts decoding every picture stored in the GLB's binary chunk; the loader then uploads the
 * bitmaps. Pictures stored elsewhere (a URI) are left to the loader.
 * @param data what the glTF loader parsed (its `onParsed` option)
 */
export function decodeGlbImagesOffThread(data: IGLTFLoaderData): void {
  const { bin } = data;
  const gltf = data.json as ParsedGltf;
  if (!bin) return;
  for (const image of gltf.images ?? []) {
    const view = image.bufferView === undefined ? undefined : gltf.bufferViews?.[image.bufferView];
    if (!view || image.uri !== undefined || view.buffer !== 0) continue;
    const bitmap = bin
      .readAsync(view.byteOffset ?? 0, view.byteLength)
      .then((bytes) => createImageBitmap(new Blob([bytes as BlobPart], { type: image.mimeType ?? "" }), { premultiplyAlpha: "none" }));
    // The loader's field is typed for bytes; the texture it feeds takes a bitmap as well.
    image._data = bitmap as unknown as Promise<ArrayBufferView>;
  }
}
