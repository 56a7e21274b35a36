/**
 * The resolved scene: everything the renderer needs, as plain JSON (stored as scene.json so
 * that remix and edit can re-render or alter it). Angles are degrees, heights metres,
 * colours linear RGB multipliers. Produced by `sceneFromPrompt`, consumed by `prepareScene`.
 */
import type { Look } from "../contract.ts";

export type TimeOfDay = "dawn" | "morning" | "noon" | "afternoon" | "sunset" | "dusk" | "night";
export type Weather = "clear" | "cloudy" | "overcast" | "storm" | "fog";
/** Shape of the ground. "none" is open space (no ground, no atmosphere). */
export type Relief = "none" | "flat" | "hills" | "mountains" | "dunes" | "canyon";
/** What covers the ground. */
export type Cover = "grass" | "forest" | "autumn" | "sand" | "snow" | "rock" | "redrock" | "alien";
export type PlanetKind = "rocky" | "gas" | "ice" | "lava";
export type Rgb = [number, number, number];

export interface LightSpec {
  azimuth: number;
  elevation: number;
  visible: boolean;
}

export interface PlanetSpec {
  azimuth: number;
  elevation: number;
  /** Angular radius, degrees. */
  radius: number;
  kind: PlanetKind;
  /** Base hue 0..1. */
  hue: number;
  rings: boolean;
}

export interface CloudSpec {
  /** Fraction of the sky covered, 0..1. */
  coverage: number;
  /** Height of the cloud layer, metres. */
  altitude: number;
  /** Size of cloud features, metres. */
  scale: number;
  /** 0 = white fair-weather clouds, 1 = dark storm base. */
  darkness: number;
  /** Streaky high cirrus instead of puffy cumulus. */
  cirrus: boolean;
}

export interface WaterSpec {
  level: number;
  kind: "ocean" | "lake";
  /** Colour of the water body (linear RGB). */
  tint: Rgb;
  /** Wave roughness 0..1 (storm: rough). */
  roughness: number;
}

export interface CitySpec {
  /** Fraction of lots built, 0..1. */
  density: number;
  /** Typical tallest tower, metres. */
  height: number;
}

/** A control image's skyline: elevation (degrees) of the sky/ground boundary around 360°. */
export interface ControlSpec {
  /** Samples at azimuth (i + 0.5) / n * 360 - 180 degrees (same convention as columns). */
  profile: number[];
}

/** An edit: inside the cone around (azimuth, elevation) of half-angle fov/2, `scene` shows. */
export interface EditRegion {
  azimuth: number;
  elevation: number;
  fov: number;
  scene: SceneSpec;
}

export interface SceneSpec {
  version: 1;
  seed: number;
  prompt: string;
  look: Look;
  /** Extra noise octaves: Model 3 = 0, Model 4 standard = 1, Model 4 enhanced = 2. */
  detail: number;
  softLines: boolean;
  time: TimeOfDay;
  /**
   * `irradiance` is written to scene.json after a render (never read by one): the linear RGB
   * irradiance the HDR radiance's sun disk carries on a surface facing it, after the
   * atmosphere and the clouds and fog in front of it (0 when no sun shows).
   */
  sun: LightSpec & { irradiance?: Rgb };
  moon: LightSpec & { phase: number };
  /** Star density 0..1 (visible where the sky is dark). */
  stars: number;
  milkyWay: number;
  /** Aurora curtains strength 0..1. */
  aurora: number;
  weather: Weather;
  clouds: CloudSpec | null;
  /** Ground fog / haze density 0..1. */
  fog: number;
  relief: Relief;
  /** Peak height of the relief, metres. */
  reliefHeight: number;
  cover: Cover;
  /** Altitude above which snow lies (metres), or null. */
  snowline: number | null;
  water: WaterSpec | null;
  city: CitySpec | null;
  nebula: { hue: number; hue2: number; intensity: number } | null;
  planets: PlanetSpec[];
  /** Multiplier on sky and light colour chosen from colour words. */
  tint: Rgb;
  /** Tone-mapping exposure of this scene. */
  exposure: number;
  /** Eye height above the camera's ground (metres) and that ground's height. */
  camera: { ground: number; eye: number };
  /** Elements named in the prompt or chosen, in words (for titles and enhanced prompts). */
  elements: string[];
  control?: ControlSpec;
  edits?: EditRegion[];
}
