/**
 * Writing a rendered task as the STORED_FILES of a skybox directory, each group as soon as
 * its pixels are final: the depth files while the image still renders, the pictures once
 * it is finished, radiance.hdr from scanline bands encoded by the workers. JPEG/PNG
 * encoding and resizing run in sharp's own threads.
 */
import { writeFile } from "node:fs/promises";
import { endianness } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { type Size, STORED_FILES } from "../contract.ts";
import { settleAll } from "../../settle-all.ts";
import { rgbeHeader } from "../formats/rgbe.ts";
import type { TaskMemory } from "./render-buffers.ts";
import type { Rgb, SceneSpec } from "../scene/scene-spec.ts";

/** image.jpg and thumb.jpg from the final image. */
export async function writePictureFiles(dir: string, memory: TaskMemory, thumbSize: Size): Promise<void> {
  const raw = { width: memory.width, height: memory.height, channels: 3 as const };
  const final = Buffer.from(memory.final);
  const image = sharp(final, { raw }).jpeg({ quality: 90 }).toBuffer();
  const thumb = sharp(final, { raw }).resize(thumbSize.width, thumbSize.height, { fit: "fill", kernel: "lanczos3" }).jpeg({ quality: 88 }).toBuffer();
  await settleAll([
    image.then((b) => writeFile(join(dir, STORED_FILES.image), b)),
    thumb.then((b) => writeFile(join(dir, STORED_FILES.thumb), b)),
  ]);
}

/** depth.png and distance.f32 from the distance pass. */
export async function writeDepthFiles(dir: string, memory: TaskMemory): Promise<void> {
  const depth = sharp(new Uint16Array(memory.depth16), { raw: { width: memory.depthWidth, height: memory.depthHeight, channels: 1 } })
    .toColourspace("grey16")
    .png({ compressionLevel: 6 })
    .toBuffer();
  await settleAll([
    depth.then((b) => writeFile(join(dir, STORED_FILES.depth), b)),
    writeFile(join(dir, STORED_FILES.distance), littleEndian(new Float32Array(memory.distance))),
  ]);
}

/** radiance.hdr: the header, then the scanline bands in order. */
export function writeRadianceFile(dir: string, width: number, height: number, bands: Uint8Array[]): Promise<void> {
  return writeFile(join(dir, STORED_FILES.radiance), [rgbeHeader(width, height), ...bands]);
}

/** scene.json: the scene, its sun with the irradiance its HDR disk carries (linear RGB, 5 significant digits). */
export function writeSceneFile(dir: string, scene: SceneSpec, sunIrradiance: Rgb): Promise<void> {
  const irradiance = sunIrradiance.map((v) => Number(v.toPrecision(5))) as Rgb;
  return writeFile(join(dir, STORED_FILES.scene), JSON.stringify({ ...scene, sun: { ...scene.sun, irradiance } }));
}

/** Float32 little-endian bytes (copied and swapped only on big-endian hosts). */
function littleEndian(values: Float32Array): Uint8Array {
  if (endianness() === "LE") return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  const out = new DataView(new ArrayBuffer(values.byteLength));
  for (let i = 0; i < values.length; i++) out.setFloat32(i * 4, values[i]!, true);
  return new Uint8Array(out.buffer);
}
