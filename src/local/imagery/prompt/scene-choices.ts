/**
 * The choices behind `sceneFromPrompt`: ground (relief, cover, water, city) and sky (time,
 * lights, weather, space objects, tint). Each named concept decides its part; anything not
 * named is kept from a base scene (remix/edit) or drawn from the seeded generator.
 */
import type { Concept } from "./prompt-words.ts";
import type { Rng } from "../math/prng.ts";
import type { CloudSpec, Rgb, SceneSpec, TimeOfDay, Weather } from "../scene/scene-spec.ts";

const GROUND_WORDS: Concept[] = ["ocean", "lake", "mountains", "dunes", "snow", "canyon", "forest", "autumn", "hills", "city", "alien"];
const SPACE_WORDS: Concept[] = ["space", "nebula", "planets"];
const TIME_WORDS: TimeOfDay[] = ["dawn", "morning", "noon", "afternoon", "sunset", "dusk", "night"];
const WEATHER_WORDS: Weather[] = ["storm", "overcast", "fog", "cloudy", "clear"];

const has = (words: Set<Concept>, list: readonly Concept[]): boolean => list.some((w) => words.has(w));

/** Seeded landscapes for prompts that name no ground. */
const BIOMES: readonly (readonly Concept[])[] = [
  ["mountains", "lake"],
  ["hills", "forest"],
  ["dunes"],
  ["ocean"],
  ["canyon"],
  ["mountains", "snow"],
  ["hills"],
  ["mountains", "forest"],
  ["ocean", "mountains"],
  ["hills", "lake", "autumn"],
];

export function chooseGround(scene: SceneSpec, words: Set<Concept>, rng: Rng, keep: boolean): void {
  const namedGround = has(words, GROUND_WORDS);
  const spaceOnly = has(words, SPACE_WORDS) && !namedGround;
  if (keep && !namedGround && !spaceOnly) return;
  const w = new Set<Concept>(namedGround || spaceOnly ? words : [...words, ...rng.pick(BIOMES)]);
  scene.water = null;
  scene.city = null;
  scene.snowline = null;
  if (spaceOnly) {
    scene.relief = "none";
    scene.reliefHeight = 0;
    scene.cover = "rock";
    scene.camera = { ground: 0, eye: 0 };
    return;
  }
  const snowy = w.has("snow");
  if (w.has("canyon")) setRelief(scene, "canyon", rng.range(350, 500), "redrock");
  else if (w.has("mountains")) setRelief(scene, "mountains", rng.range(1300, 2300), "grass");
  else if (w.has("dunes")) setRelief(scene, "dunes", rng.range(30, 60), "sand");
  else if (w.has("hills") || w.has("forest") || w.has("autumn") || snowy || w.has("lake")) {
    setRelief(scene, rng.chance(0.5) && w.has("lake") ? "mountains" : "hills", 0, "grass");
    if (scene.relief === "hills") scene.reliefHeight = rng.range(70, 140);
    else scene.reliefHeight = rng.range(1100, 1900);
  } else setRelief(scene, "flat", 0, w.has("alien") ? "alien" : "sand");
  if (w.has("forest")) scene.cover = "forest";
  if (w.has("autumn")) scene.cover = "autumn";
  // A desert canyon is red rock: sand covers other reliefs a desert names, not its walls.
  if (w.has("dunes") && scene.relief !== "dunes" && scene.relief !== "canyon") scene.cover = "sand";
  if (w.has("alien")) scene.cover = "alien";
  if (scene.relief === "mountains") scene.snowline = snowy ? scene.reliefHeight * 0.25 : rng.chance(0.7) ? scene.reliefHeight * 0.62 : null;
  if (snowy) {
    if (scene.relief !== "mountains") scene.cover = "snow";
    scene.snowline = scene.relief === "mountains" ? scene.reliefHeight * 0.2 : -1e3;
  }
  if (w.has("ocean"))
    scene.water = {
      level: 0,
      kind: "ocean",
      tint: w.has("teal") || (w.has("ocean") && w.has("golden")) ? [0.02, 0.12, 0.12] : [0.01, 0.05, 0.08],
      roughness: 0.35,
    };
  else if (w.has("lake"))
    scene.water = { level: scene.relief === "mountains" ? 12 : 4, kind: "lake", tint: [0.02, 0.06, 0.06], roughness: 0.08 };
  if (w.has("city")) {
    scene.city = { density: rng.range(0.65, 0.85), height: rng.range(260, 450) };
    if (scene.relief === "flat") scene.cover = "grass";
    scene.camera = { ground: 45, eye: 1.8 };
  }
}

function setRelief(scene: SceneSpec, relief: SceneSpec["relief"], height: number, cover: SceneSpec["cover"]): void {
  scene.relief = relief;
  scene.reliefHeight = height;
  scene.cover = cover;
  const ground = { none: 0, flat: 3, hills: 25, mountains: 110, dunes: height * 0.9, canyon: height * 0.25 }[relief];
  scene.camera = { ground, eye: 1.8 };
}

export function chooseSky(scene: SceneSpec, words: Set<Concept>, rng: Rng, keep: boolean): void {
  const space = scene.relief === "none";
  const namedTime = TIME_WORDS.find((t) => words.has(t));
  const nightHint = words.has("aurora") || words.has("stars") || words.has("moon") || space;
  if (namedTime || !keep) {
    scene.time =
      namedTime ??
      (nightHint ? "night" : rng.pick(["dawn", "morning", "noon", "noon", "afternoon", "sunset", "sunset", "dusk", "night"] as const));
    placeLights(scene, rng);
  }
  const namedWeather = WEATHER_WORDS.find((w) => words.has(w));
  if (namedWeather || !keep || space) {
    const dry = scene.relief === "dunes" || scene.relief === "canyon";
    const options = dry
      ? (["clear", "clear", "cloudy"] as const)
      : (["clear", "cloudy", "cloudy", "cloudy", "overcast", "fog", "clear"] as const);
    scene.weather = space ? "clear" : (namedWeather ?? rng.pick(options));
    if (words.has("cloudy") && scene.weather === "clear" && !words.has("clear")) scene.weather = "cloudy";
    scene.clouds = space ? null : cloudsFor(scene.weather, words.has("cirrus"), rng);
    scene.fog = { clear: 0.05, cloudy: 0.1, overcast: 0.3, storm: 0.35, fog: 0.85 }[scene.weather];
  }
  if (words.has("aurora")) scene.aurora = 1;
  else if (!keep) scene.aurora = 0;
  chooseSpaceObjects(scene, words, rng, keep);
  if (has(words, ["red", "orange", "golden", "green", "teal", "blue", "purple", "pink"]) || !keep) scene.tint = tintOf(words);
  settleSky(scene);
}

/** Changes the time of day after the fact (image-to-pano): lights, stars and exposure follow. */
export function retime(scene: SceneSpec, time: TimeOfDay, rng: Rng): void {
  scene.time = time;
  placeLights(scene, rng);
  settleSky(scene);
}

/** Stars, Milky Way and exposure that follow from time, weather and space. */
function settleSky(scene: SceneSpec): void {
  const space = scene.relief === "none";
  const dark = scene.time === "night" || space;
  scene.stars = dark ? 1 : scene.time === "dusk" ? 0.4 : 0;
  scene.milkyWay = dark && (scene.clouds === null || scene.clouds.coverage < 0.6) ? (space ? 1 : 0.7) : 0;
  scene.exposure = exposureOf(scene);
}

function placeLights(scene: SceneSpec, rng: Rng): void {
  const elevation = {
    dawn: [2.5, 6],
    morning: [18, 30],
    noon: [55, 70],
    afternoon: [28, 40],
    sunset: [2, 5],
    dusk: [-6, -3],
    night: [-40, -25],
  }[scene.time];
  const low = scene.time === "dawn" || scene.time === "sunset" || scene.time === "dusk";
  scene.sun = {
    azimuth: low ? rng.range(-60, 60) : rng.range(-150, 150),
    elevation: rng.range(elevation[0]!, elevation[1]!),
    visible: true,
  };
  const moonUp = scene.time === "night" || (scene.time === "dusk" && rng.chance(0.5));
  scene.moon = {
    azimuth: scene.sun.azimuth + 180 + rng.range(-50, 50),
    elevation: moonUp ? rng.range(18, 45) : -20,
    visible: moonUp,
    phase: rng.range(0.55, 1),
  };
}

function cloudsFor(weather: Weather, cirrus: boolean, rng: Rng): CloudSpec | null {
  switch (weather) {
    case "clear":
      return cirrus ? { coverage: 0.3, altitude: 7000, scale: 5000, darkness: 0, cirrus: true } : null;
    case "cloudy":
      return { coverage: rng.range(0.35, 0.55), altitude: rng.range(1500, 2500), scale: rng.range(1200, 2200), darkness: 0.1, cirrus };
    case "overcast":
      return { coverage: 0.92, altitude: 1800, scale: 2500, darkness: 0.45, cirrus: false };
    case "storm":
      return { coverage: 0.88, altitude: 1400, scale: 2200, darkness: 0.85, cirrus: false };
    case "fog":
      return { coverage: 0.35, altitude: 2000, scale: 2000, darkness: 0.2, cirrus: false };
  }
}

function chooseSpaceObjects(scene: SceneSpec, words: Set<Concept>, rng: Rng, keep: boolean): void {
  const space = scene.relief === "none";
  if (words.has("nebula") || (!keep && space && rng.chance(0.7))) {
    const named = COLOUR_HUES.filter(([c]) => words.has(c)).map(([, h]) => h);
    const hue = named[0] ?? rng.next();
    const hue2 = named[1] ?? (hue + rng.range(0.1, 0.3) * (rng.chance(0.5) ? 1 : -1) + 1) % 1;
    scene.nebula = { hue, hue2, intensity: rng.range(0.7, 1) };
  } else if (!keep) scene.nebula = null;
  const wantPlanets = words.has("planets") || (!keep && (space || words.has("alien")) && rng.chance(0.6));
  if (wantPlanets) {
    const count = words.has("planets") ? 1 + rng.int(2) : 1;
    scene.planets = [];
    for (let i = 0; i < count; i++) {
      const big = i === 0;
      scene.planets.push({
        azimuth: rng.range(-80, 80) + i * 140,
        elevation: space ? rng.range(-25, 30) : rng.range(12, 35),
        radius: big ? rng.range(9, 16) : rng.range(2, 5),
        kind: rng.pick(["rocky", "gas", "gas", "ice", "lava"] as const),
        hue: rng.next(),
        rings: big && (words.has("planets") ? rng.chance(0.6) : rng.chance(0.4)),
      });
    }
  } else if (!keep) scene.planets = [];
}

/** Hue (0..1) of each colour word, for nebulae. */
const COLOUR_HUES: [Concept, number][] = [
  ["red", 0.0],
  ["orange", 0.07],
  ["golden", 0.12],
  ["green", 0.33],
  ["teal", 0.48],
  ["blue", 0.6],
  ["purple", 0.76],
  ["pink", 0.88],
];

const TINTS: Record<string, Rgb> = {
  red: [1.35, 0.75, 0.7],
  orange: [1.3, 0.95, 0.7],
  golden: [1.2, 1.05, 0.75],
  green: [0.85, 1.2, 0.85],
  teal: [0.75, 1.1, 1.15],
  blue: [0.8, 0.95, 1.3],
  purple: [1.1, 0.75, 1.35],
  pink: [1.35, 0.8, 1.1],
};

function tintOf(words: Set<Concept>): Rgb {
  const tint: Rgb = [1, 1, 1];
  for (const [name, t] of Object.entries(TINTS)) {
    if (!words.has(name as Concept)) continue;
    for (let c = 0; c < 3; c++) tint[c]! *= t[c]!;
  }
  return tint;
}

function exposureOf(scene: SceneSpec): number {
  if (scene.relief === "none") return 1;
  const base = { dawn: 1.2, morning: 1.1, noon: 1, afternoon: 1.05, sunset: 1.2, dusk: 3.5, night: 9 }[scene.time];
  const weather = { clear: 1, cloudy: 1.05, overcast: 1.3, storm: 1.1, fog: 1.2 }[scene.weather];
  return base * weather;
}
