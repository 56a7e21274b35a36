/**
 * Words -> SceneSpec. The prompt picks each part of the scene; what it leaves open is
 * chosen from the seed (and the prompt's own hash), so any prompt gives a coherent scene.
 *
 *   time of day   dawn/sunrise, morning, noon/midday/sunny, afternoon, sunset/golden hour/
 *                 evening, dusk/twilight, night/moonlit/starry (moon and stars)
 *   weather       clear/cloudless, cloudy/clouds, cirrus/wispy, overcast/rain/gloomy,
 *                 storm/thunder/lightning, fog/mist/haze
 *   ground        ocean/sea/beach/island/tropical, lake/river/reflection, mountains/alpine/
 *                 peaks/volcano, desert/dunes/sand, snow/winter/arctic/glacier, canyon/mesa/
 *                 red rock, forest/woods/jungle/trees, autumn, hills/meadow/valley/fields,
 *                 city/skyline/skyscrapers/cyberpunk
 *   space         space/cosmos/galaxy/starfield (no ground unless one is named), nebula,
 *                 planet/gas giant/ringed, alien/mars (alien ground colours), aurora/northern lights
 *   colour        red, orange, golden/warm, green, teal/turquoise, blue/cold, purple/violet,
 *                 pink/magenta: tint the sky and light
 * negativeText removes what it names: clouds, sun, moon, stars, mountains, water/ocean/lake,
 * city/buildings, trees/forest, snow, fog/mist, planets, nebula, aurora.
 * The full vocabulary is in prompt-words.ts.
 */
import type { RenderRequest } from "../contract.ts";
import { type Concept, conceptsIn } from "./prompt-words.ts";
import { hashString, Rng } from "../math/prng.ts";
import { applyNegatives } from "./scene-negatives.ts";
import { chooseGround, chooseSky } from "./scene-choices.ts";
import type { SceneSpec } from "../scene/scene-spec.ts";

export type PromptInput = Pick<RenderRequest, "prompt" | "negativeText" | "seed" | "look" | "model" | "variant" | "softLines">;

/** Detail level of a model/variant (extra noise octaves). */
export function detailOf(model: 3 | 4, variant: RenderRequest["variant"]): number {
  if (model === 3) return 0;
  return variant === "enhanced" ? 2 : 1;
}

/**
 * Resolves a prompt into a scene. With `base` (remix, edit) the base scene is kept and only
 * what the new prompt names changes; the new seed still varies the details.
 */
export function sceneFromPrompt(input: PromptInput, base?: SceneSpec): SceneSpec {
  const words = conceptsIn(input.prompt);
  const rng = new Rng(input.seed ^ hashString(input.prompt.toLowerCase().trim()));
  const scene: SceneSpec = base ? structuredClone<SceneSpec>(base) : emptyScene();
  scene.seed = input.seed;
  scene.prompt = input.prompt;
  scene.look = input.look;
  scene.detail = detailOf(input.model, input.variant);
  scene.softLines = input.softLines;
  delete scene.edits;
  chooseGround(scene, words, rng, base !== undefined);
  chooseSky(scene, words, rng, base !== undefined);
  applyNegatives(scene, conceptsIn(input.negativeText));
  scene.elements = describeElements(scene, words);
  return scene;
}

function emptyScene(): SceneSpec {
  return {
    version: 1,
    seed: 0,
    prompt: "",
    look: "photoreal",
    detail: 0,
    softLines: false,
    time: "noon",
    sun: { azimuth: 0, elevation: 60, visible: true },
    moon: { azimuth: 0, elevation: -30, visible: false, phase: 1 },
    stars: 0,
    milkyWay: 0,
    aurora: 0,
    weather: "clear",
    clouds: null,
    fog: 0,
    relief: "hills",
    reliefHeight: 100,
    cover: "grass",
    snowline: null,
    water: null,
    city: null,
    nebula: null,
    planets: [],
    tint: [1, 1, 1],
    exposure: 1,
    camera: { ground: 0, eye: 2 },
    elements: [],
  };
}

/** Human words for the resolved scene, most important first. */
function describeElements(scene: SceneSpec, words: Set<Concept>): string[] {
  const out: string[] = [];
  if (scene.relief === "none") out.push("deep space");
  if (scene.relief === "mountains") out.push(scene.snowline !== null ? "snow-capped mountains" : "mountains");
  if (scene.relief === "canyon") out.push("canyon");
  if (scene.relief === "dunes") out.push("desert dunes");
  if (scene.relief === "hills") out.push(scene.cover === "snow" ? "snowy hills" : "rolling hills");
  if (scene.cover === "forest") out.push("forest");
  if (scene.cover === "autumn") out.push("autumn forest");
  if (scene.cover === "alien") out.push("alien terrain");
  if (scene.water) out.push(scene.water.kind === "ocean" ? "ocean" : "lake");
  if (scene.city) out.push("city skyline");
  out.push(scene.time === "noon" ? "midday" : scene.time);
  if (scene.clouds) out.push(scene.weather === "storm" ? "storm clouds" : scene.weather === "overcast" ? "overcast sky" : "clouds");
  if (scene.fog > 0.5) out.push("fog");
  if (scene.stars > 0 && (scene.time === "night" || scene.relief === "none")) out.push("stars");
  if (scene.moon.visible && scene.moon.elevation > 0) out.push("moon");
  if (scene.aurora > 0) out.push("aurora");
  if (scene.nebula) out.push("nebula");
  if (scene.planets.length > 0) out.push(scene.planets.some((p) => p.rings) ? "ringed planet" : "planets");
  for (const colour of ["red", "orange", "golden", "green", "teal", "blue", "purple", "pink"] as const) {
    if (words.has(colour)) out.push(colour);
  }
  return out;
}
