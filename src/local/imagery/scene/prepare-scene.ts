/**
 * A SceneSpec turned into the numbers the per-pixel code reads (light directions and
 * colours, noise scales, city lots...), for one panorama width. Built once per job in
 * each worker (cheap) and cached per task.
 */
import { type CelestialParams, prepareCelestial } from "./sky/celestial.ts";
import { type CityParams, prepareCity } from "./city/city.ts";
import type { CityLook } from "./city/city-shading.ts";
import { type CloudParams, prepareClouds } from "./sky/clouds.ts";
import { type FogParams, hazeColour, prepareFog } from "./fog.ts";
import { azimuthOfU } from "../../../api/panorama/panorama-directions.ts";
import type { ClipmapMemory } from "./terrain/height-clipmap.ts";
import { type LookParams, lookParams } from "../render/looks/looks.ts";
import { setNoiseSeed } from "../math/noise.ts";
import type { SceneSpec } from "./scene-spec.ts";
import { prepareSky, type SkyParams } from "./sky/sky.ts";
import { diskRows, prepareSunEnergy, type SunEnergy } from "./sky/sun-energy.ts";
import { prepareSpace, type SpaceParams } from "./sky/space.ts";
import { prepareSurface, type SurfaceParams } from "./ground/surface.ts";
import { prepareTerrain, type TerrainParams } from "./terrain/terrain.ts";
import { type FlatTop, flatTop } from "./terrain/terrain-march.ts";
import { prepareWater, type WaterParams } from "./water.ts";

/** Precomputed grids in shared memory, filled by the workers as they need them. */
export interface SharedGrids {
  shadowHeights: ClipmapMemory;
}

export interface PreparedScene {
  spec: SceneSpec;
  width: number;
  height: number;
  pixelAngle: number;
  exposure: number;
  camY: number;
  /** Open space: no ground, no atmosphere. */
  open: boolean;
  look: LookParams;
  sky: SkyParams;
  celestial: CelestialParams;
  /** The HDR radiance's sun disk (sun-energy.ts). */
  sunEnergy: SunEnergy;
  space: SpaceParams;
  clouds: CloudParams;
  terrain: TerrainParams;
  city: CityParams;
  cityLook: CityLook;
  water: WaterParams;
  fog: FogParams;
  surface: SurfaceParams;
  /** Haze colour (fog.ts hazeColour) in each pixel column's azimuth, RGB per column. */
  hazeByColumn: Float64Array;
}

/** `shared`: grids shared by the workers of one render (see render-buffers.ts). */
export function prepareScene(spec: SceneSpec, width: number, height: number, shared?: SharedGrids): PreparedScene {
  setNoiseSeed(spec.seed);
  const look = lookParams(spec.look, spec.softLines);
  const scene = lookScene(spec);
  const sky = prepareSky(scene);
  const terrain = prepareTerrain(scene, look.octaveBias);
  const light: [number, number, number] = [sky.lx, sky.ly, sky.lz];
  const clouds = prepareClouds(scene, width, light, look.cloudSharpness);
  const celestial = prepareCelestial(scene, width);
  // The disk carries the clear-sky sun: an overcast deck occludes it with its own clouds.
  const sunEnergy = prepareSunEnergy(sky, celestial, sky.direct, width, height);
  overcastLight(scene, sky);
  const fog = prepareFog(scene, sky, terrain.camY);
  const night = scene.time === "night" ? 1 : scene.time === "dusk" ? 0.7 : scene.time === "sunset" || scene.time === "dawn" ? 0.25 : 0;
  return {
    spec: scene,
    width,
    height,
    pixelAngle: (2 * Math.PI) / width,
    exposure: scene.exposure,
    camY: terrain.camY,
    open: scene.relief === "none",
    look,
    sky,
    celestial,
    sunEnergy,
    space: prepareSpace(scene, width),
    clouds,
    terrain,
    city: prepareCity(scene, terrain.cityRadius),
    cityLook: { night: look.neon ? 1 : night, neon: look.neon, pixelAngle: (2 * Math.PI) / width, flatFaces: look.facets > 0 },
    water: prepareWater(scene),
    fog,
    surface: prepareSurface(scene, terrain, look, sky, width, shared?.shadowHeights),
    hazeByColumn: hazeByColumn(fog, width),
  };
}

function hazeByColumn(fog: FogParams, width: number): Float64Array {
  const out = new Float64Array(width * 3);
  for (let x = 0; x < width; x++) {
    const a = azimuthOfU((x + 0.5) / width);
    hazeColour(fog, Math.sin(a), -Math.cos(a), out, x * 3);
  }
  return out;
}

/** Under a closed cloud deck the light is diffuse: less direct sun, greyer ambient. */
function overcastLight(scene: SceneSpec, sky: SkyParams): void {
  const cover = scene.clouds?.coverage ?? 0;
  if (cover < 0.6) return;
  const k = (cover - 0.6) / 0.4;
  // Storm decks are dark underneath.
  const gloom = 1 - 0.65 * (scene.clouds?.darkness ?? 0);
  const grey =
    ((sky.ambient[0]! + sky.ambient[1]! + sky.ambient[2]!) / 3 + (sky.direct[0]! + sky.direct[1]! + sky.direct[2]!) * 0.05) * gloom;
  for (let c = 0; c < 3; c++) {
    sky.ambient[c] = sky.ambient[c]! * (1 - k) + grey * k;
    sky.direct[c] = sky.direct[c]! * (1 - 0.7 * k) * gloom;
  }
}

/** The neon look's palette: a magenta/violet sky, stars, a big low sun. */
/**
 * Rows [y0, y1) the sun's disk may reach in a width x height render of `spec`: the rows
 * of its prepared `sunEnergy`, known before any worker prepares the scene.
 */
export function sunDiskRows(spec: SceneSpec, width: number, height: number): [number, number] {
  const { y0, y1 } = diskRows(prepareCelestial(lookScene(spec), width), height);
  return [y0, y1];
}

/**
 * The camera's flat top in a render `height` rows tall of `spec` (terrain-march.ts), known
 * before any worker prepares the scene: the same terrain, from the same seeded noise.
 */
export function imageFlatTop(spec: SceneSpec, height: number): FlatTop {
  setNoiseSeed(spec.seed);
  return flatTop(prepareTerrain(lookScene(spec), lookParams(spec.look, spec.softLines).octaveBias), height);
}

/** The scene as the look draws it (neon moves the sun to a sunset). */
function lookScene(spec: SceneSpec): SceneSpec {
  return lookParams(spec.look, spec.softLines).neon ? neonScene(spec) : spec;
}

function neonScene(spec: SceneSpec): SceneSpec {
  const s = structuredClone<SceneSpec>(spec);
  s.tint = [s.tint[0] * 1.4, s.tint[1] * 0.4, s.tint[2] * 1.7];
  if (s.time !== "night") {
    s.time = "sunset";
    s.sun = { ...s.sun, elevation: 4 };
    s.exposure = 1.3;
  }
  s.stars = Math.max(s.stars, 0.6);
  s.fog = Math.max(s.fog, 0.15);
  return s;
}
