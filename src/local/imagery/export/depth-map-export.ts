/**
 * depth-map-png: a 16-bit greyscale PNG of the exact distances (distance.f32) at the
 * requested size, in the logarithmic encoding of src/api/depth-encoding.ts (near = white,
 * sky = black). Resampling happens on the encoded values, so a sky/ground edge blends in
 * log distance instead of averaging metres with the sky's huge constant.
 */
import { writeFile } from "node:fs/promises";
import type { ExportRequest } from "../contract.ts";
import { encodeDistance16 } from "../../../api/depth-encoding.ts";
import { encodeDepthPng } from "../formats/depth-png.ts";
import { resampleRows } from "./row-resampler.ts";
import { readDistances } from "./stored-skybox.ts";

export async function exportDepthMap(req: ExportRequest, path: string): Promise<void> {
  const map = await readDistances(req.from);
  const row = new Float32Array(map.width);
  let y = 0;
  const source = {
    width: map.width,
    height: map.height,
    channels: 1,
    next: (): Float32Array => {
      for (let x = 0; x < map.width; x++) row[x] = encodeDistance16(map.metres[y * map.width + x]!);
      y++;
      return row;
    },
  };
  const { width, height } = req.size;
  const values = new Uint16Array(width * height);
  let o = 0;
  for (const out of resampleRows(source, width, height)) {
    for (let x = 0; x < width; x++) values[o++] = Math.round(out[x]!);
  }
  await writeFile(path, await encodeDepthPng(values, width, height));
}
