/**
 * Every export of a stored skybox: `exportSkybox` writes `${req.out}.${ext}` in the
 * format of `req.type` and says where and what it is. Options are taken as given (the
 * service has already applied the spec's rules and defaults).
 *
 * Long exports yield to the event loop between rows or frames; for real parallelism run
 * them in a worker thread.
 */
import { randomUUID } from "node:crypto";
import { mkdir, rename, rm } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { ExportTypeKey } from "../../../api/reference.ts";
import type { ExportRequest, ExportResult } from "../contract.ts";
import { exportCubeMap } from "./cube/cube-map-export.ts";
import { exportDepthMap } from "./depth-map-export.ts";
import { exportEquirect } from "./equirect-export.ts";
import { exportHdri } from "./hdri/hdri-export.ts";
import { exportMeshGlb } from "./mesh/mesh-glb-export.ts";
import { exportVideo } from "./video/video-export.ts";

interface ExportFormat {
  ext: string;
  contentType: string;
  write: (req: ExportRequest, path: string, signal?: AbortSignal) => Promise<void>;
}

export interface ExportOptions {
  /** Cancels the export (between rows, faces or frames); the promise rejects with its reason. */
  signal?: AbortSignal;
}

export const EXPORT_FORMATS: Record<ExportTypeKey, ExportFormat> = {
  "equirectangular-jpg": { ext: "jpg", contentType: "image/jpeg", write: (r, p) => exportEquirect(r, "jpg", p) },
  "equirectangular-png": { ext: "png", contentType: "image/png", write: (r, p) => exportEquirect(r, "png", p) },
  "cube-map-default-png": { ext: "zip", contentType: "application/zip", write: (r, p, s) => exportCubeMap(r, "default", p, s) },
  "cube-map-roblox-png": { ext: "zip", contentType: "application/zip", write: (r, p, s) => exportCubeMap(r, "roblox", p, s) },
  "hdri-hdr": { ext: "hdr", contentType: "image/vnd.radiance", write: (r, p, s) => exportHdri(r, "hdr", p, s) },
  "hdri-exr": { ext: "exr", contentType: "image/x-exr", write: (r, p, s) => exportHdri(r, "exr", p, s) },
  "depth-map-png": { ext: "png", contentType: "image/png", write: exportDepthMap },
  "video-landscape-mp4": { ext: "mp4", contentType: "video/mp4", write: (r, p, s) => exportVideo(r, "landscape", p, s) },
  "video-portrait-mp4": { ext: "mp4", contentType: "video/mp4", write: (r, p, s) => exportVideo(r, "portrait", p, s) },
  "video-square-mp4": { ext: "mp4", contentType: "video/mp4", write: (r, p, s) => exportVideo(r, "square", p, s) },
  "3d-mesh-glb": { ext: "glb", contentType: "model/gltf-binary", write: exportMeshGlb },
};

/**
 * Writes the export next to its final name and renames it when complete, so a file at
 * `${req.out}.${ext}` is always whole (a crash or a cancel leaves no half file there).
 */
export async function exportSkybox(req: ExportRequest, options: ExportOptions = {}): Promise<ExportResult> {
  const format = EXPORT_FORMATS[req.type];
  if (!format) throw new Error(`Unknown export type: ${String(req.type)}`);
  options.signal?.throwIfAborted();
  const path = resolve(`${req.out}.${format.ext}`);
  // The temporary name keeps the extension (sharp and ffmpeg pick the format from it) and is
  // this job's own: two identical exports may run at once, and each renames a whole file.
  const partial = resolve(`${req.out}.partial-${randomUUID()}.${format.ext}`);
  await mkdir(dirname(path), { recursive: true });
  try {
    await format.write(req, partial, options.signal);
    await rename(partial, path);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return { path, contentType: format.contentType };
}
