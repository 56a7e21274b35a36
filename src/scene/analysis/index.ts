/**
 * babylon-skybox/analysis (browser, Node): pure functions of a skybox's files, for apps and
 * tools that read them without applying a skybox. `applySkybox` uses the same code, loaded
 * on demand; this entry keeps it (and fflate) out of the core entry's size.
 * @module babylon-skybox/analysis
 */
export { decodeDepthPng, decodeDistance16, backdropRadius, type DepthImage } from "./depth-decoding.ts";
export { detectSun, findSun, NO_SUN, type DetectedSun, type DetectSunOptions, type DiskPlace, type SunFinding } from "./detect-sun.ts";
export { decodeHdr, type HdrPixels } from "./hdr-pixels.ts";
