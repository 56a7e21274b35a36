/**
 * hdri-hdr and hdri-exr: the stored linear radiance (radiance.hdr), resampled to the
 * requested size and mapped by the HDRI mode (see hdri-modes.ts), streamed row by row.
 */
import type { ExportRequest } from "../../contract.ts";
import { RgbeRowReader } from "../../formats/rgbe.ts";
import { yieldToEventLoop } from "../buffered-file.ts";
import { applyHdriMode } from "./hdri-modes.ts";
import { ExrFileWriter, RgbeFileWriter, type HdriRowWriter } from "./hdri-writers.ts";
import { resampleRows } from "../row-resampler.ts";
import { readRadiance } from "../stored-skybox.ts";

export async function exportHdri(req: ExportRequest, format: "hdr" | "exr", path: string, signal?: AbortSignal): Promise<void> {
  const reader = new RgbeRowReader(await readRadiance(req.from));
  const row = new Float32Array(reader.width * 3);
  const source = { width: reader.width, height: reader.height, channels: 3, next: () => reader.next(row) };
  const { width, height } = req.size;
  const mode = req.hdriMode ?? "realism";
  const writer: HdriRowWriter = format === "hdr" ? new RgbeFileWriter(path, width, height) : new ExrFileWriter(path, width, height);
  let complete = false;
  try {
    let y = 0;
    for (const out of resampleRows(source, width, height)) {
      applyHdriMode(mode, out);
      await writer.writeRow(out);
      if (++y % 64 === 0) {
        await yieldToEventLoop();
        signal?.throwIfAborted();
      }
    }
    complete = true;
  } finally {
    await writer.close(complete);
  }
}
