/**
 * The vocabulary the procedural renderer understands: each concept and the words (or short
 * phrases) that name it. Matching is on whole words, case-insensitive, with an optional
 * plural "s"/"es". See prompt-scene.ts for what each concept does to the scene.
 */

export const WORDS = {
  // Time of day.
  dawn: ["dawn", "sunrise", "daybreak", "first light", "early morning"],
  morning: ["morning"],
  noon: ["noon", "midday", "daytime", "sunny", "summer day", "bright day", "high sun"],
  afternoon: ["afternoon", "late day"],
  sunset: ["sunset", "golden hour", "evening", "sundown", "setting sun"],
  dusk: ["dusk", "twilight", "blue hour", "nightfall"],
  night: ["night", "midnight", "moonlit", "moonlight", "starry", "nighttime", "nocturnal"],
  // Weather.
  clear: ["clear", "cloudless", "clear sky", "blue sky"],
  cloudy: ["cloudy", "cloud", "partly cloudy", "fluffy", "cumulus"],
  cirrus: ["cirrus", "wispy", "streaky"],
  overcast: ["overcast", "grey sky", "gray sky", "gloomy", "rain", "rainy", "drizzle", "dreary"],
  storm: ["storm", "stormy", "thunder", "thunderstorm", "lightning", "tempest", "hurricane", "dramatic sky"],
  fog: ["fog", "foggy", "mist", "misty", "haze", "hazy", "smog"],
  // Ground.
  ocean: ["ocean", "sea", "seascape", "beach", "coast", "coastal", "shore", "wave", "island", "tropical", "bay", "harbor", "harbour"],
  lake: ["lake", "river", "pond", "lagoon", "reflection", "fjord", "water"],
  mountains: ["mountain", "alpine", "alps", "peak", "summit", "himalaya", "mountain range", "volcano", "ridge", "cliff", "rocky"],
  dunes: ["desert", "dune", "sahara", "sand", "sandy", "oasis"],
  snow: ["snow", "snowy", "winter", "arctic", "glacier", "ice", "icy", "frozen", "tundra", "snow-capped", "polar"],
  canyon: ["canyon", "mesa", "badlands", "red rock", "arizona", "gorge", "butte"],
  forest: ["forest", "woods", "woodland", "tree", "jungle", "rainforest", "taiga", "pine", "grove"],
  autumn: ["autumn", "fall foliage", "fall colors", "fall colours"],
  hills: ["hill", "meadow", "countryside", "valley", "farmland", "grassland", "prairie", "field", "plain", "savanna", "pasture", "rolling"],
  city: ["city", "skyline", "skyscraper", "downtown", "metropolis", "urban", "town", "cyberpunk", "building", "tower", "futuristic city"],
  // Space.
  space: ["space", "outer space", "cosmos", "cosmic", "galaxy", "universe", "deep space", "orbit", "interstellar", "starfield", "sci-fi"],
  nebula: ["nebula", "nebulae", "gas cloud", "stardust"],
  planets: ["planet", "gas giant", "ringed", "saturn", "jupiter", "exoplanet", "moons"],
  alien: ["alien", "extraterrestrial", "otherworldly", "mars", "martian"],
  aurora: ["aurora", "northern lights", "aurora borealis", "southern lights"],
  // Sky objects (used mostly by negative text).
  sun: ["sun", "sunlight", "sunshine", "sunbeam"],
  moon: ["moon", "full moon", "crescent", "lunar"],
  stars: ["star", "starlight", "milky way"],
  // Colours.
  red: ["red", "crimson", "scarlet", "blood"],
  orange: ["orange", "amber", "fiery"],
  golden: ["golden", "gold", "yellow", "warm"],
  green: ["green", "emerald", "lush"],
  teal: ["teal", "turquoise", "cyan", "aqua"],
  blue: ["blue", "azure", "sapphire", "cold", "icy blue"],
  purple: ["purple", "violet", "lavender", "indigo"],
  pink: ["pink", "magenta", "rose", "pastel"],
} as const;

export type Concept = keyof typeof WORDS;

const patterns = new Map<Concept, RegExp>();
for (const [concept, words] of Object.entries(WORDS) as [Concept, readonly string[]][]) {
  const alternatives = words.map((w) => w.replace(/[-/\\^$*+?.()|[\]{}]/g, "\\$&").replace(/ /g, "[\\s-]+"));
  patterns.set(concept, new RegExp(`(?:^|[^a-z])(?:${alternatives.join("|")})(?:s|es)?(?![a-z])`, "i"));
}

/** The concepts a text names. */
export function conceptsIn(text: string | null | undefined): Set<Concept> {
  const found = new Set<Concept>();
  if (!text) return found;
  for (const [concept, pattern] of patterns) if (pattern.test(text)) found.add(concept);
  return found;
}
