/**
 * Options of `applySkybox` and their defaults. Each part (lighting, background, backdrop)
 * is on by default and takes `false` to turn it off or an object to tune it.
 */
import type { SkyboxClient } from "../api/client/create-client.ts";
import type { HdriModeKey, MeshQualityKey, ResolutionName } from "../api/reference.ts";
import { DEFAULT_HDRI_MODE, DEFAULT_MESH_QUALITY, DEPTH_SCALE } from "../api/rules/export-rules.ts";
import type { StatusTracker } from "../status/create-tracker.ts";
import type { AppliedSkybox } from "./applied-skybox.ts";
import type { ApplyProgress } from "./progress.ts";
import type { SkyboxCache } from "./cache/skybox-cache.ts";
import { quotedInput } from "../api/errors/rule-sentence.ts";
import { numberOptions, part } from "./option-values.ts";
import { defaultFlatRadius, type GroundShape, maxFlatRadius } from "./background/flat-ground.ts";
import { resolveSun, type ResolvedSun, type SunOptions } from "./sun-light/sun-options.ts";

/**
 * Where the environment comes from:
 * - `hdri-hdr`: the Radiance HDR export (linear radiance; the default),
 * - `hdri-exr`: the OpenEXR export,
 * - `cube-map`: the six-face PNG ZIP export (Model 3 only; Model 4 falls back to `equirect`),
 * - `equirect`: the generation's own panorama image (`file_url`, 8-bit), no export needed.
 */
export type LightingSource = "hdri-hdr" | "hdri-exr" | "cube-map" | "equirect";

/** Image-based lighting (`scene.environmentTexture`). */
export interface LightingOptions {
  /** @default "hdri-hdr" */
  source?: LightingSource;
  /** HDRI mode of an HDRI export. @default "realism" */
  hdriMode?: HdriModeKey;
  /**
   * Resolution of the export. @default the smallest the model offers that holds a cube of
   * `size` (1K for a 256 cube), the largest when none does
   */
  resolution?: ResolutionName;
  /** Cube face size in pixels; a power of two (others are rounded up), at most the GPU's limit. @default 256 */
  size?: number;
  /** Samples of the GGX prefiltering (`HDRFiltering` quality). @default 64 */
  quality?: number;
  /** `scene.environmentIntensity`. @default 1 */
  intensity?: number;
}

/** The visible background. */
export interface BackgroundOptions {
  /**
   * 0 shows the panorama at full resolution on a photo dome; above 0 (up to 1) shows the
   * prefiltered environment cube blurred by that much.
   * @default 0
   */
  blur?: number;
  /**
   * The panorama's lower half projected onto the scene's ground plane (y = 0, centred on
   * x = z = 0) and its upper half onto a sphere, as three.js's `GroundedSkybox`: objects
   * standing at y = 0 stand on the picture's own ground, which receives their shadows and
   * stays under them as the camera turns. `true` for the defaults. Needs `blur` 0 and no
   * backdrop (the backdrop is the richer ground, from the depth map).
   * @default false (a dome at infinite distance)
   */
  ground?: boolean | GroundOptions;
}

/** The grounded background's shape. */
export interface GroundOptions {
  /**
   * Height of the projection centre above the ground, in scene units: where the panorama's
   * camera stood. Larger spreads the picture's ground wider around the objects; the flat
   * ground objects stand on reaches 2.8 × `height` from under the centre (beyond it the
   * picture's far ground, whose pixels a flat ground would stretch into radial streaks, lies
   * lower, on its way out to the sphere).
   * @default 2
   */
  height?: number;
  /**
   * Radius of the sphere the sky is shown on, in scene units (more than 1.5 × `height`; the
   * far ground meets it at the horizon). It must hold the camera: from outside, the picture
   * is seen from behind. At most 0.9 of `camera.maxZ`.
   * @default 100
   */
  radius?: number;
  /**
   * Radius of the flat ground objects stand on, around the foot of the projection centre,
   * in scene units. Objects farther out stand above the picture's far ground, which lies
   * lower; a wider flat ground keeps them on it, at a cost: at distance r the panorama's
   * pixels are stretched sqrt(1 + (r / height)²) times along the radius (3:1 at the
   * default, 5:1 at 4.9 × `height`, 10:1 at 10 × `height`), which a camera looking down
   * sees as radial streaks. More than 0, and at most what leaves the far ground room: the
   * ray to the flat ground's edge, sqrt(height² + flatRadius²), at most 2/3 of `radius`.
   * @default 2.83 × `height` (the pixels stretched 3:1 at its edge), less on a sphere under 4.5 × `height`
   */
  flatRadius?: number;
}

/** The depth-displaced backdrop mesh. */
export interface BackdropOptions {
  /** Mesh quality of the GLB export (Model 3). @default "medium" */
  meshQuality?: MeshQualityKey;
  /** Depth scale (3..10): how far near things come inwards. @default 3 */
  depthScale?: number;
  /**
   * Radius of the backdrop's sky in scene units, centred on the active camera's position at
   * apply time. @default 500 (the export's own metres), at most 0.8 of `camera.maxZ`
   */
  radius?: number;
}

/** Options of `applySkybox`. */
export interface ApplySkyboxOptions {
  /** Client to use. @default createSkyboxClient({ baseUrl: "/skybox" }) (behind the proxy) */
  client?: SkyboxClient;
  /** Status tracker used while the skybox or an export is not complete. @default one polling through `client` */
  tracker?: StatusTracker;
  /** Image-based lighting; false turns it off. @default true */
  lighting?: boolean | LightingOptions;
  /** Visible background; false turns it off. @default true */
  background?: boolean | BackgroundOptions;
  /** Depth-displaced backdrop mesh; false turns it off. @default true */
  backdrop?: boolean | BackdropOptions;
  /**
   * A `DirectionalLight` (with shadows) from the sun found in the HDRI, its share taken out
   * of the environment's diffuse light; no light when the sky has no sun. @default false
   */
  sun?: boolean | SunOptions;
  /** Rotation around Y in radians, for lighting, background and backdrop alike. @default 0 */
  rotation?: number;
  /** Cache of baked environments and downloaded assets; false for none. @default one SkyboxCache per engine (with the engine's in-memory EnvironmentCache) */
  cache?: SkyboxCache | false;
  /** Previous skybox to dispose once this one is ready (no frame without a skybox). */
  replace?: AppliedSkybox | null;
  /** Cancels the apply: the promise rejects with the signal's reason, nothing stays in the scene. */
  signal?: AbortSignal;
  /** Called with each stage (the handle, and its observable, only exists once ready). */
  onProgress?: (progress: ApplyProgress) => void;
  /** The skybox's model, when the record does not say (`model: "Model 4"`). @default from the record, else 3 */
  model?: 3 | 4;
}

export interface ResolvedLighting {
  source: LightingSource;
  hdriMode: HdriModeKey;
  resolution: ResolutionName | null;
  size: number;
  quality: number;
  intensity: number;
}

export interface ResolvedBackdrop {
  meshQuality: MeshQualityKey;
  depthScale: number;
  radius: number | null;
}

export interface ResolvedBackground {
  blur: number;
  /** The grounded background's height and radius; null for a dome at infinite distance. */
  ground: GroundShape | null;
}

/** What the parts need, defaults applied; `null` = part off. */
export interface ResolvedParts {
  lighting: ResolvedLighting | null;
  background: ResolvedBackground | null;
  backdrop: ResolvedBackdrop | null;
  sun: ResolvedSun | null;
  rotation: number;
}

/**
 * The options with their defaults.
 * @throws RangeError naming a number option outside its rule
 */
export function resolveParts(options: ApplySkyboxOptions): ResolvedParts {
  const lighting = part(options.lighting);
  const background = part(options.background);
  const backdrop = part(options.backdrop);
  const num = numberOptions("applySkybox");
  return {
    lighting: lighting && {
      source: lighting.source ?? "hdri-hdr",
      hdriMode: lighting.hdriMode ?? DEFAULT_HDRI_MODE,
      resolution: lighting.resolution ?? null,
      size: powerOfTwo(num("lighting.size", lighting.size, 256, 1, 16384)),
      quality: Math.round(num("lighting.quality", lighting.quality, 64, 1)),
      intensity: num("lighting.intensity", lighting.intensity, 1, 0),
    },
    background: background && resolveBackground("applySkybox", background, 0, backdrop !== null),
    backdrop: backdrop && {
      meshQuality: backdrop.meshQuality ?? DEFAULT_MESH_QUALITY,
      depthScale: num("backdrop.depthScale", backdrop.depthScale, DEPTH_SCALE.default, DEPTH_SCALE.min, DEPTH_SCALE.max),
      radius: backdrop.radius === undefined ? null : num("backdrop.radius", backdrop.radius, 0, 0.001),
    },
    sun: resolveSun(options.sun),
    rotation: num("rotation", options.rotation, 0),
  };
}

/**
 * The background's settings, the ground checked against the blur and the backdrop.
 * @param caller `applySkybox` or `loadSkybox`, named in errors
 * @param background the caller's settings
 * @param blur the blur when the caller gives none
 * @param backdrop whether a backdrop is built too
 * @throws RangeError naming the option and its rule
 */
export function resolveBackground(caller: string, background: BackgroundOptions, blur: number, backdrop: boolean): ResolvedBackground {
  const num = numberOptions(caller);
  const resolved: ResolvedBackground = { blur: num("background.blur", background.blur, blur, 0, 1), ground: null };
  const ground = background.ground === true ? {} : background.ground || null;
  if (!ground) return resolved;
  if (typeof ground !== "object")
    throw new RangeError(`${caller}: background.ground: must be a boolean or an object of ground settings${quotedInput(ground)}`);
  if (resolved.blur > 0) throw new RangeError(`${caller}: background.ground: needs background.blur 0 (is ${resolved.blur})`);
  if (backdrop) throw new RangeError(`${caller}: background.ground: needs backdrop false (the backdrop has its own ground)`);
  const height = num("background.ground.height", ground.height, 2, 0.001);
  const radius = num("background.ground.radius", ground.radius, 100, 0);
  if (radius <= 1.5 * height)
    throw new RangeError(
      `${caller}: background.ground.radius: must be more than 1.5 × background.ground.height (${1.5 * height})${quotedInput(radius)}`,
    );
  const widest = maxFlatRadius(height, radius);
  const flatRadius = num("background.ground.flatRadius", ground.flatRadius, defaultFlatRadius(height, radius), 0);
  if (!(flatRadius > 0) || flatRadius > widest)
    throw new RangeError(
      `${caller}: background.ground.flatRadius: must be more than 0 and at most ${+widest.toFixed(3)}, where the ray to its edge is 2/3 of background.ground.radius (the far ground needs room out to the sphere)${quotedInput(flatRadius)}`,
    );
  return { ...resolved, ground: { height, radius, flatRadius } };
}

/** The power of two at or above `n` (prefiltering needs one: its mip count is log2(size) + 1). */
export function powerOfTwo(n: number): number {
  return 2 ** Math.max(0, Math.ceil(Math.log2(Math.max(1, n))));
}
