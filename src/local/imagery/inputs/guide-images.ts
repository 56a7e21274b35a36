/**
 * Decoding the images a request brings (init, control, image-to-pano) or a stored skybox
 * holds, with sharp (which works off the JS thread), into raw RGB bytes.
 */
import sharp from "sharp";

export interface RawImage {
  width: number;
  height: number;
  /** RGB bytes, row-major from the top. */
  data: Uint8Array;
}

/** Decodes PNG/JPEG/... bytes, optionally resampled to exactly width x height. */
export async function decodeImage(bytes: Uint8Array, size?: { width: number; height: number }): Promise<RawImage> {
  let img = sharp(bytes).removeAlpha().toColourspace("srgb");
  if (size) img = img.resize(size.width, size.height, { fit: "fill", kernel: "lanczos3" });
  const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`decodeImage: expected 3 channels, got ${info.channels}`);
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

/** The same bytes in a SharedArrayBuffer (for workers). */
export function sharedCopy(data: Uint8Array | Float32Array): SharedArrayBuffer {
  const shared = new SharedArrayBuffer(data.byteLength);
  new Uint8Array(shared).set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  return shared;
}
