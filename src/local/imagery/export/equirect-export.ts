/**
 * equirectangular-jpg / -png: the stored panorama at the requested size (sharp, Lanczos;
 * enlarging for 16K is allowed). A JPEG at the stored size is the stored file itself:
 * re-encoding would only lose quality.
 */
import { copyFile } from "node:fs/promises";
import sharp from "sharp";
import type { ExportRequest } from "../contract.ts";
import { panoramaSize, storedPath } from "./stored-skybox.ts";

/**
 * Huffman-optimised JPEG keeps every DCT coefficient of the image in memory (1.6 GB at 16K,
 * 4:4:4); above 8K the encoder streams instead, for a file about 5 % larger.
 */
const MAX_OPTIMISED_PIXELS = 8192 * 4096;

export async function exportEquirect(req: ExportRequest, format: "jpg" | "png", path: string): Promise<void> {
  const source = storedPath(req.from, "image");
  const stored = await panoramaSize(req.from);
  if (format === "jpg" && stored.width === req.size.width && stored.height === req.size.height) {
    await copyFile(source, path);
    return;
  }
  const pixels = req.size.width * req.size.height;
  const resized = sharp(source, { limitInputPixels: false })
    .resize(req.size.width, req.size.height, { fit: "fill", kernel: "lanczos3" })
    .toColourspace("srgb");
  const encoded =
    format === "jpg"
      ? resized.jpeg({ quality: 92, chromaSubsampling: "4:4:4", optimiseCoding: pixels <= MAX_OPTIMISED_PIXELS })
      : resized.png({ compressionLevel: 6, adaptiveFiltering: false });
  await encoded.toFile(path);
}
