/**
 * enhance_prompt: a short prompt expanded into a richer description, built from the
 * resolved scene (so it names exactly what the panorama shows) with seeded wording.
 */
import { Rng } from "../math/prng.ts";
import type { SceneSpec } from "../scene/scene-spec.ts";

const OPENINGS = ["A breathtaking", "A serene", "A sweeping", "An awe-inspiring", "A tranquil", "A dramatic"];
const TIME_PHRASES: Record<SceneSpec["time"], string> = {
  dawn: "at dawn, the first rays of sunrise warming the horizon",
  morning: "in soft morning light",
  noon: "under a bright midday sun",
  afternoon: "in warm afternoon light",
  sunset: "at golden-hour sunset, the sky glowing orange and pink",
  dusk: "at dusk, deep blue twilight settling over the land",
  night: "at night beneath a star-filled sky",
};
const GROUND_PHRASES: Record<string, string> = {
  "snow-capped mountains": "snow-capped mountain peaks rising in layered ridges",
  mountains: "rugged mountain ranges stretching into the distance",
  canyon: "a vast red-rock canyon with terraced cliffs and deep gorges",
  "desert dunes": "rolling golden desert dunes sculpted by the wind",
  "rolling hills": "gentle rolling hills",
  "snowy hills": "snow-covered hills",
  forest: "dense evergreen forest",
  "autumn forest": "a forest ablaze with autumn colours",
  "alien terrain": "strange alien terrain in unearthly colours",
  ocean: "a wide open ocean reflecting the sky",
  lake: "a calm mirror-like lake",
  "city skyline": "a glittering city skyline of towering skyscrapers",
  "deep space": "the infinite depths of outer space",
};
const SKY_PHRASES: Record<string, string> = {
  clouds: "scattered clouds drifting overhead",
  "storm clouds": "towering dark storm clouds",
  "overcast sky": "a soft overcast sky",
  fog: "drifting fog in the valleys",
  moon: "a luminous moon",
  stars: "countless stars",
  aurora: "shimmering green aurora curtains",
  nebula: "a colourful glowing nebula",
  planets: "distant planets",
  "ringed planet": "a giant ringed planet",
};
const LOOK_PHRASES: Record<SceneSpec["look"], string> = {
  photoreal: "photorealistic, natural lighting, highly detailed",
  painterly: "painted with expressive oil brush strokes",
  anime: "in a vibrant anime style with crisp cel shading and clean outlines",
  watercolor: "as a delicate watercolor painting on textured paper",
  "low-poly": "in a faceted low-poly art style",
  neon: "in a glowing neon sci-fi palette",
  "pixel-art": "as detailed retro pixel art",
  "digital-art": "as vivid, high-contrast digital concept art",
};

/** The expanded prompt of a scene (deterministic for a given scene). */
export function enhancePrompt(scene: SceneSpec): string {
  const rng = new Rng(scene.seed ^ 0x5eed);
  const ground = scene.elements.filter((e) => e in GROUND_PHRASES).map((e) => GROUND_PHRASES[e]!);
  const sky = scene.elements.filter((e) => e in SKY_PHRASES).map((e) => SKY_PHRASES[e]!);
  const colours = scene.elements.filter((e) => ["red", "orange", "golden", "green", "teal", "blue", "purple", "pink"].includes(e));
  const subject = ground.length > 0 ? ground.join(", ") : "an open landscape";
  const parts = [`${rng.pick(OPENINGS)} 360-degree panorama of ${subject}`];
  if (scene.relief !== "none") parts.push(TIME_PHRASES[scene.time]);
  if (sky.length > 0) parts.push(`with ${sky.join(" and ")}`);
  if (colours.length > 0) parts.push(`in ${colours.join(" and ")} tones`);
  const original = scene.prompt.trim();
  const sentence = `${parts.join(" ")}, ${LOOK_PHRASES[scene.look]}.`;
  return original ? `${sentence} Inspired by: "${original}".` : sentence;
}
