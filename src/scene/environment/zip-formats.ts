/**
 * The zlib and ZIP formats of some exports (cube-map ZIPs, EXR's ZIP compression), on
 * fflate. Loaded by `import()` only when such an export is applied: most skyboxes are
 * lit from `.hdr` or the cache's baked texels, and the core entry stays small without fflate.
 */
import { unzipSync, unzlibSync } from "fflate";
import { ExrLoaderGlobalConfiguration } from "@babylonjs/core/Materials/Textures/Loaders/EXR/exrLoader.configuration.js";
import { FACE_NAMES } from "./raw-cube.ts";

/** The six faces of a default cube-map ZIP (`px.png` ... `nz.png`, any folder), +X first. */
export function facesOfZip(zip: Uint8Array): Uint8Array[] {
  const files = unzipSync(zip);
  const byFace = new Map<string, Uint8Array>();
  for (const [path, data] of Object.entries(files)) {
    const base = path
      .split("/")
      .pop()!
      .toLowerCase()
      .replace(/\.(png|jpe?g|webp)$/, "");
    byFace.set(base, data);
  }
  return FACE_NAMES.map((face) => {
    const data = byFace.get(face);
    if (!data) throw new Error(`The cube-map ZIP has no ${face} face (it holds ${Object.keys(files).join(", ") || "nothing"})`);
    return data;
  });
}

/**
 * Babylon's EXR decoder expects a global `fflate` for ZIP-compressed files and loads it from
 * a CDN by default. The package's own fflate takes its place, and the script the decoder
 * still loads becomes an empty one, so nothing leaves the machine. A FFLATEUrl the
 * application set itself is left alone.
 */
export function provideFflate(): void {
  const global = globalThis as { fflate?: { unzlibSync?: unknown } };
  global.fflate ??= { unzlibSync };
  if (ExrLoaderGlobalConfiguration.FFLATEUrl.startsWith("https://unpkg.com/fflate"))
    ExrLoaderGlobalConfiguration.FFLATEUrl = "data:text/javascript,";
}
