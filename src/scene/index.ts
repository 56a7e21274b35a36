/**
 * babylon-skybox scene part (browser): `applySkybox` and what it is made of. Side-effect
 * imports of Babylon (texture types, loaders, glTF) are made by the modules that need them.
 * The pure decoders of a skybox's files (depth, HDR, the sun) are the entry
 * `babylon-skybox/analysis` (analysis.ts), kept out of this one's size.
 */
export { applySkybox } from "./apply-skybox.ts";
export { loadSkybox } from "./load-skybox.ts";
export type { LoadSkyboxOptions } from "./load-options.ts";
export { AppliedSkybox, type SkyboxParts, type SkyboxVisibility } from "./applied-skybox.ts";
export type { ApplySkyboxOptions, LightingOptions, BackgroundOptions, GroundOptions, BackdropOptions, LightingSource } from "./options.ts";
export type { ApplyPart, ApplyProgress, ApplyStage } from "./progress.ts";
export { SkyboxCache, createSkyboxCache, type SkyboxCacheOptions } from "./skybox-cache.ts";
export { EnvironmentCache, getEnvironmentCache, DEFAULT_ENVIRONMENT_CACHE_BYTES, type EnvironmentCacheOptions } from "./environment-cache.ts";
export { pickResolution, modelOf } from "./export-choice.ts";
export { bakeEnvironment } from "./bake-environment.ts";
export type { SkyboxPart } from "./skybox-part.ts";
export type { DetectedSun } from "./sun/detect-sun.ts";
export type { SkyboxSun } from "./sun/skybox-sun.ts";
export type { SunOptions } from "./sun/sun-options.ts";
