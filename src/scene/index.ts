/**
 * babylon-skybox scene part (browser): `applySkybox` and what it is made of. Side-effect
 * imports of Babylon (texture types, loaders, glTF) are made by the modules that need them.
 * The pure decoders of a skybox's files (depth, HDR, the sun) are the entry
 * `babylon-skybox/analysis` (analysis/index.ts), kept out of this one's size.
 */
export { applySkybox } from "./apply-skybox.ts";
export { loadSkybox } from "./saved/load-skybox.ts";
export type { LoadSkyboxOptions } from "./saved/load-options.ts";
export { AppliedSkybox, type AppliedSkyboxOptions, type SkyboxParts, type SkyboxVisibility } from "./applied-skybox.ts";
export type {
  ApplySkyboxOptions,
  LightingOptions,
  BackgroundOptions,
  GroundOptions,
  BackdropOptions,
  LightingSource,
} from "./apply-options.ts";
export type { ApplyPart, ApplyProgress, ApplyStage } from "./progress.ts";
export { SkyboxCache, createSkyboxCache, type SkyboxCacheOptions } from "./cache/skybox-cache.ts";
export {
  EnvironmentCache,
  getEnvironmentCache,
  DEFAULT_ENVIRONMENT_CACHE_BYTES,
  type EnvironmentCacheOptions,
} from "./cache/environment-cache.ts";
export { pickResolution, modelOf } from "./exports/part-exports.ts";
export { bakeEnvironment } from "./baking/bake-environment.ts";
export type { SkyboxPart } from "./skybox-part.ts";
export type { DetectedSun } from "./analysis/detect-sun.ts";
export type { SkyboxSun } from "./sun-light/skybox-sun.ts";
export type { SunOptions } from "./sun-light/sun-options.ts";
