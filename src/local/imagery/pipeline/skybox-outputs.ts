/**
 * A rendered task as the STORED_FILES of a skybox directory: each group encoded as soon as
 * its pixels are final (the depth files while the image still renders; radiance.hdr from
 * scanline bands the workers encode; JPEG/PNG encoding and resizing in sharp's own
 * threads), then every file written once, in its final form, and flushed together.
 */
import { open } from "node:fs/promises";
import { endianness } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { type Size, STORED_FILES } from "../contract.ts";
import { settleAll } from "../../settle-all.ts";
import { syncFolder } from "../../store/durable-files.ts";
import { encodeDepthPng } from "../formats/depth-png.ts";
import { rgbeHeader } from "../formats/rgbe.ts";
import type { RenderOutputs } from "./render-buffers.ts";
import type { Rgb, SceneSpec } from "../scene/scene-spec.ts";

/** A stored file's name and its bytes, in parts written in order. */
export type EncodedFile = [name: string, parts: Uint8Array[]];

/** image.jpg and thumb.jpg from the final image. */
export async function encodePictures(memory: RenderOutputs, thumbSize: Size): Promise<EncodedFile[]> {
  const raw = { width: memory.width, height: memory.height, channels: 3 as const };
  const final = Buffer.from(memory.final);
  const [image, thumb] = await settleAll([
    // Optimised Huffman tables make libjpeg hold every DCT coefficient of the image for a
    // second pass (about 190 MB at 8K, and a second pass over them); the pixels are the same without.
    sharp(final, { raw }).jpeg({ quality: 90, optimiseCoding: false }).toBuffer(),
    sharp(final, { raw }).resize(thumbSize.width, thumbSize.height, { fit: "fill", kernel: "lanczos3" }).jpeg({ quality: 88 }).toBuffer(),
  ]);
  return [
    [STORED_FILES.image, [image]],
    [STORED_FILES.thumb, [thumb]],
  ];
}

/** depth.png and distance.f32 from the distance pass. */
export async function encodeDepth(memory: RenderOutputs): Promise<EncodedFile[]> {
  const depth = await encodeDepthPng(new Uint16Array(memory.depth16), memory.depthWidth, memory.depthHeight);
  return [
    [STORED_FILES.depth, [depth]],
    [STORED_FILES.distance, [littleEndian(new Float32Array(memory.distance))]],
  ];
}

/** radiance.hdr: the header, then the scanline bands in order. */
export function radianceFile(width: number, height: number, bands: Uint8Array[]): EncodedFile {
  return [STORED_FILES.radiance, [rgbeHeader(width, height), ...bands]];
}

/** scene.json: the scene, its sun with the irradiance its HDR disk carries (linear RGB, 5 significant digits). */
export function sceneFile(scene: SceneSpec, sunIrradiance: Rgb): EncodedFile {
  const irradiance = sunIrradiance.map((v) => Number(v.toPrecision(5))) as Rgb;
  return [STORED_FILES.scene, [Buffer.from(JSON.stringify({ ...scene, sun: { ...scene.sun, irradiance } }))]];
}

/**
 * Writes every file into `dir` and flushes them and the folder: once this resolves, the
 * files are durable, so the record may say they exist. Settles once every write has.
 */
export async function writeStoredFiles(dir: string, files: EncodedFile[]): Promise<void> {
  await settleAll(
    files.map(async ([name, parts]) => {
      const file = await open(join(dir, name), "w");
      try {
        await file.writeFile(parts);
        await file.sync();
      } finally {
        await file.close();
      }
    }),
  );
  syncFolder(dir);
}

/** Float32 little-endian bytes (copied and swapped only on big-endian hosts). */
function littleEndian(values: Float32Array): Uint8Array {
  if (endianness() === "LE") return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  const out = new DataView(new ArrayBuffer(values.byteLength));
  for (let i = 0; i < values.length; i++) out.setFloat32(i * 4, values[i]!, true);
  return new Uint8Array(out.buffer);
}
