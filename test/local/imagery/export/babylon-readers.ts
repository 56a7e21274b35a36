/**
 * Babylon's own HDR and EXR readers, run in Node: the independent check that our files
 * load in Babylon. Both return top-row-first RGB floats here.
 */
import * as fflate from "fflate";
import { GetExrHeader } from "@babylonjs/core/Materials/Textures/Loaders/EXR/exrLoader.header.js";
import { CreateDecoderAsync, ScanData } from "@babylonjs/core/Materials/Textures/Loaders/EXR/exrLoader.decoder.js";
import { EXROutputType } from "@babylonjs/core/Materials/Textures/Loaders/EXR/exrLoader.configuration.js";
import { Tools } from "@babylonjs/core/Misc/tools.pure.js";
import { decodeHdr } from "../../../../src/scene/analysis/hdr-pixels.ts";

export interface FloatImage {
  width: number;
  height: number;
  rgb: Float32Array;
}

/** Babylon's Radiance reader, as the scene decodes HDRIs for the sun. */
export const babylonReadHdr: (bytes: Uint8Array) => FloatImage = decodeHdr;

/** Babylon's ZIP decoder loads fflate as a browser script; in Node it is a global already. */
function provideFflate(): void {
  (globalThis as unknown as { fflate: typeof fflate }).fflate = fflate;
  Tools.LoadScriptAsync = async () => {};
}

export async function babylonReadExr(bytes: Uint8Array): Promise<FloatImage & { compression: number }> {
  provideFflate();
  const copy = new Uint8Array(bytes); // a Buffer may be a view into a shared pool
  const view = new DataView(copy.buffer);
  const offset = { value: 0 };
  const header = GetExrHeader(view, offset);
  const decoder = await CreateDecoderAsync(header, view, offset, EXROutputType.Float);
  ScanData(decoder, header, view, offset);
  const { width, height } = decoder;
  const rgba = decoder.byteArray as Float32Array;
  // Babylon stores rows bottom-up (GL texture order) with 4 channels.
  const rgb = new Float32Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const from = ((height - 1 - y) * width + x) * 4;
      rgb.set(rgba.subarray(from, from + 3), (y * width + x) * 3);
    }
  }
  return { width, height, rgb, compression: header.compression as number };
}
