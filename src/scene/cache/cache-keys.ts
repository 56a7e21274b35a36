/**
 * Cache keys: what makes two entries the same. They name the skybox (obfuscated id) and the
 * options that change the bytes, never a URL (the same file may be served from another
 * host, or the proxy's port may change between runs).
 */
import type { ExportChoice } from "../exports/part-exports.ts";
import type { LightingSource, ResolvedLighting } from "../apply-options.ts";

/** Bumped when a format or a baking step changes, so old entries are never read (v2: baked texels, not `.env`). */
const VERSION = "v2";

/** The baked environment of a lighting setup (baked-texels.ts). */
export function envKey(skyboxId: string, source: LightingSource, choice: ExportChoice | null, lighting: ResolvedLighting): string {
  const exportPart = choice ? `${choice.resolution ?? "-"}|${choice.hdriMode ?? "-"}` : "panorama";
  return `${VERSION}|env|${skyboxId}|${source}|${exportPart}|${lighting.size}|q${lighting.quality}`;
}

/** A downloaded export file. */
export function exportKey(skyboxId: string, choice: ExportChoice): string {
  const parts = [choice.typeKey, choice.resolution, choice.hdriMode, choice.meshQuality, choice.depthScale].map((p) => p ?? "-");
  return `${VERSION}|export|${skyboxId}|${parts.join("|")}`;
}

/** A file of the generation itself (its panorama, its depth map). */
export function generationFileKey(skyboxId: string, file: "panorama" | "depth"): string {
  return `${VERSION}|file|${skyboxId}|${file}`;
}

/** The panorama texture of the background dome (the memory tier only: its bytes are the panorama's). */
export function domeKey(skyboxId: string): string {
  return `${VERSION}|dome|${skyboxId}`;
}

/** The mipmapped panorama texture of the grounded background (the memory tier only). */
export function groundKey(skyboxId: string): string {
  return `${VERSION}|ground|${skyboxId}`;
}

/**
 * A texture of a GLB backdrop (the memory tier only). Its URL is no network address: the
 * loader names it after the GLB's content-named file (kept-parts.ts' glbFileName).
 */
export function glbTextureKey(textureUrl: string): string {
  return `texture|${textureUrl}`;
}

/** The sun found in an HDRI export (`version` names the detection, so a better one looks again). */
export function sunKey(skyboxId: string, choice: ExportChoice, version: number): string {
  return `${VERSION}|sun${version}|${skyboxId}|${choice.typeKey}|${choice.resolution ?? "-"}|${choice.hdriMode ?? "-"}`;
}

/**
 * The environment of a saved skybox (load-skybox.ts): named by its file's SHA-256, so the
 * same file served from any host is one entry; a `.hdr` also by the cube it is prefiltered to.
 */
export function savedEnvKey(sha256: string, format: "env" | "hdr", size: number, quality: number): string {
  return format === "env" ? `${VERSION}|saved-env|${sha256}` : `${VERSION}|saved-env|${sha256}|${size}|q${quality}`;
}
