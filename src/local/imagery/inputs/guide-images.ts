/**
 * Decoding the images a request brings (init, control, image-to-pano) or a stored skybox
 * holds, with sharp (which works off the JS thread), into raw RGB bytes. The service has
 * held request images to INPUT_IMAGE_LIMITS from their headers; the decoder holds to the
 * same pixel count itself (a header that lies is refused, not decoded), reads sequentially
 * (rows stream through a resize instead of the whole image sitting in memory), and its
 * result is never bigger than the size asked for, or than the limit.
 *
 * sharp loads on the first decode: render workers import this folder for its pure helpers
 * and never decode, and loading sharp is most of a worker's start (about 150 of 250 ms).
 */
import type { Sharp } from "sharp";
import { INPUT_IMAGE_LIMITS } from "../contract.ts";

export interface RawImage {
  width: number;
  height: number;
  /** RGB bytes, row-major from the top. */
  data: Uint8Array;
}

const MAX_PIXELS = INPUT_IMAGE_LIMITS.maxWidth * INPUT_IMAGE_LIMITS.maxHeight;

async function decoder(bytes: Uint8Array): Promise<Sharp> {
  const { default: sharp } = await import("sharp");
  return sharp(bytes, { limitInputPixels: MAX_PIXELS, sequentialRead: true }).removeAlpha().toColourspace("srgb");
}

/** Decodes PNG/JPEG/... bytes, optionally resampled to exactly width x height. */
export async function decodeImage(bytes: Uint8Array, size?: { width: number; height: number }): Promise<RawImage> {
  const img = await decoder(bytes);
  return toRaw(size ? img.resize(size.width, size.height, { fit: "fill", kernel: "lanczos3" }) : img);
}

/** Decodes bytes shrunk (never enlarged) to fit a `maxSide` square, keeping the aspect ratio, in one pass. */
export async function decodeImageWithin(bytes: Uint8Array, maxSide: number): Promise<RawImage> {
  return toRaw((await decoder(bytes)).resize(maxSide, maxSide, { fit: "inside", withoutEnlargement: true, kernel: "lanczos3" }));
}

async function toRaw(img: Sharp): Promise<RawImage> {
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
