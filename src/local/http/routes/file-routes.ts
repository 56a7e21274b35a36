import { createReadStream, existsSync, statSync } from "node:fs";
import { join, normalize, sep } from "node:path";
import { Readable } from "node:stream";
import type { Context } from "hono";
import { notFound } from "../http-error.ts";

const CONTENT_TYPES: Record<string, string> = {
  jpg: "image/jpeg",
  png: "image/png",
  hdr: "image/vnd.radiance",
  exr: "image/x-exr",
  zip: "application/zip",
  mp4: "video/mp4",
  glb: "model/gltf-binary",
};

/** Folders of the data directory that are public (file URLs need no key, like a CDN's). */
const PUBLIC = ["generations", "exports", "styles"];

/**
 * Serves a file below the data directory at a stable URL, streamed, with its content type.
 * Inputs, accounts and records are never served; paths cannot leave the folder.
 */
export function serveFile(c: Context, dataDir: string, relative: string): Response {
  const path = normalize(join(dataDir, relative));
  const top = relative.split("/")[0] ?? "";
  const ext = path.split(".").pop()?.toLowerCase() ?? "";
  const inside = path.startsWith(normalize(dataDir) + sep);
  if (!inside || !PUBLIC.includes(top) || !CONTENT_TYPES[ext] || /(^|\/)input-/.test(relative) || !existsSync(path))
    throw notFound("File not found");
  const size = statSync(path).size;
  return c.body(Readable.toWeb(createReadStream(path)) as ReadableStream, 200, {
    "content-type": CONTENT_TYPES[ext],
    "content-length": String(size),
    "cache-control": "public, max-age=31536000, immutable",
    "access-control-allow-origin": "*",
  });
}
