/**
 * Options of `loadSkybox` and their defaults: the saved Apply settings (skybox.json's
 * `settings` and `sun`) unless the caller says otherwise.
 */
import type { Light } from "@babylonjs/core/Lights/light.js";
import type { SavedSkybox } from "../../api/saved/saved-skybox.ts";
import type { AppliedSkybox } from "../applied-skybox.ts";
import { numberOptions, part } from "../option-values.ts";
import { powerOfTwo, resolveBackground, type BackgroundOptions, type ResolvedBackground } from "../apply-options.ts";
import type { ApplyProgress } from "../progress.ts";
import type { SkyboxCache } from "../cache/skybox-cache.ts";
import { resolveSun, type ResolvedSun, type SunOptions } from "../sun-light/sun-options.ts";

/** Options of `loadSkybox`. Each part is on by default when the folder holds it; `false` turns it off. */
export interface LoadSkyboxOptions {
  /**
   * Image-based lighting. `size` and `quality` only matter for a folder saved with a `.hdr`
   * (by `babylon-skybox save`): it is prefiltered once to a cube of `size` with `quality`
   * samples, then kept in the cache; a `.env` is prefiltered already.
   * @default true, intensity as saved, size 256, quality 64
   */
  lighting?: boolean | { intensity?: number; size?: number; quality?: number };
  /**
   * The background; `blur` 0 shows the saved panorama on a dome, or with `ground` projected
   * onto the scene's ground (see `BackgroundOptions.ground`). @default true, blur as saved, no ground
   */
  background?: boolean | BackgroundOptions;
  /** The backdrop, when the folder has one. @default true; radius 500, at most 0.8 of `camera.maxZ` */
  backdrop?: boolean | { radius?: number };
  /** The sun light, when the folder has a sun (`resolution` does not apply: the sun was found when saving). @default true */
  sun?: boolean | Omit<SunOptions, "resolution">;
  /** Rotation around Y in radians. @default as saved */
  rotation?: number;
  /** Cache of the prefiltered environment of a `.hdr` (and the engine's in-memory one); false for none. @default the one `applySkybox` uses */
  cache?: SkyboxCache | false;
  /** Previous skybox to dispose once this one is ready. */
  replace?: AppliedSkybox | null;
  /** Cancels the load: the promise rejects with the signal's reason, nothing stays in the scene. */
  signal?: AbortSignal;
  /** Called with each stage. */
  onProgress?: (progress: ApplyProgress) => void;
}

/** What the parts of a load need, defaults applied; `null` = part off. */
export interface ResolvedLoad {
  lighting: { intensity: number; size: number; quality: number } | null;
  /** Built for lighting, or only for a blurred background. */
  environment: boolean;
  background: ResolvedBackground | null;
  backdrop: {
    radius: number | null;
    depthScale: number;
    meshQuality: NonNullable<SavedSkybox["settings"]["backdrop"]>["meshQuality"];
  } | null;
  sun: ResolvedSun | null;
  /** The lights `sun.replaces` names (off while the sun is shown, also when the folder has none). */
  replaces: readonly Light[];
  rotation: number;
}

/**
 * The options over the manifest's settings.
 * @param manifest the saved skybox
 * @param options the caller's options
 */
export function resolveLoad(manifest: SavedSkybox, options: LoadSkyboxOptions): ResolvedLoad {
  const { settings } = manifest;
  const lighting = part(options.lighting);
  const background = part(options.background);
  const backdrop = manifest.files.backdrop && settings.backdrop ? part(options.backdrop) : null;
  const sun = manifest.sun ? (options.sun === undefined ? resolveSun(true) : resolveSun(options.sun)) : null;
  const num = numberOptions("loadSkybox");
  const resolvedBackground = background && resolveBackground("loadSkybox", background, settings.backgroundBlur, backdrop !== null);
  const blur = resolvedBackground?.blur ?? 0;
  const asked = options.sun === undefined || options.sun === false ? null : resolveSun(options.sun);
  return {
    lighting: lighting && {
      intensity: num("lighting.intensity", lighting.intensity, settings.intensity, 0),
      size: powerOfTwo(num("lighting.size", lighting.size, 256, 1, 16384)),
      quality: Math.round(num("lighting.quality", lighting.quality, 64, 1)),
    },
    environment: lighting !== null || (background !== null && blur > 0),
    background: resolvedBackground,
    backdrop: backdrop &&
      settings.backdrop && {
        radius: backdrop.radius === undefined ? null : num("backdrop.radius", backdrop.radius, 0, 0.001),
        depthScale: settings.backdrop.depthScale,
        meshQuality: settings.backdrop.meshQuality,
      },
    sun,
    replaces: asked?.replaces ?? [],
    rotation: num("rotation", options.rotation, settings.rotation),
  };
}
