/**
 * Reading the files of a stored skybox directory (`STORED_FILES`) in the forms the
 * exporters need.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import sharp from "sharp";
import { STORED_FILES, type Size } from "../contract.ts";
import { PanoramaRgb8 } from "./panorama-sampler.ts";

export function storedPath(dir: string, file: keyof typeof STORED_FILES): string {
  return join(dir, STORED_FILES[file]);
}

/** Pixel size of the stored panorama (image.jpg). */
export async function panoramaSize(dir: string): Promise<Size> {
  const meta = await sharp(storedPath(dir, "image")).metadata();
  return { width: meta.width, height: meta.height };
}

/**
 * The panorama as 8-bit RGB at `size` (Lanczos resampling by sharp; the stored file's
 * bytes when the size already matches). Callers pass at most the stored size when they
 * sample it themselves, so the panorama is never upscaled into memory for nothing.
 */
export async function readPanorama(dir: string, size: Size): Promise<PanoramaRgb8> {
  const { data, info } = await sharp(storedPath(dir, "image"))
    .resize(size.width, size.height, { fit: "fill", kernel: "lanczos3" })
    .removeAlpha()
    .toColourspace("srgb")
    .raw()
    .toBuffer({ resolveWithObject: true });
  return new PanoramaRgb8(info.width, info.height, new Uint8Array(data.buffer, data.byteOffset, data.length));
}

/** The smaller of `wanted` and the stored size, keeping 2:1. */
export function noLargerThan(wanted: Size, stored: Size): Size {
  return wanted.width <= stored.width ? wanted : stored;
}

export interface DistanceMap {
  width: number;
  height: number;
  /** Metres along each pixel's ray, top row first; the sky holds one large constant. */
  metres: Float32Array;
}

/** distance.f32: raw little-endian floats with no header, 2:1 like every stored map. */
export async function readDistances(dir: string): Promise<DistanceMap> {
  const bytes = await readFile(storedPath(dir, "distance"));
  const count = bytes.length / 4;
  const height = Math.round(Math.sqrt(count / 2));
  const width = height * 2;
  if (!Number.isInteger(count) || width * height !== count) {
    throw new Error(`${STORED_FILES.distance}: ${bytes.length} bytes is not a 2:1 float32 map`);
  }
  const metres = new Float32Array(count);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  for (let i = 0; i < count; i++) metres[i] = view.getFloat32(i * 4, true);
  return { width, height, metres };
}

export function readRadiance(dir: string): Promise<Uint8Array> {
  return readFile(storedPath(dir, "radiance"));
}
