/**
 * The sun found in a skybox's HDRI, kept with the skybox in its cache: in memory for the
 * page's life, and in the cache's store (a few bytes of JSON beside the downloads and the
 * baked environment), so a re-apply finds its sun without downloading or decoding anything.
 * "No sun" is kept too: it is an answer.
 */
import type { SkyboxCache } from "../cache/skybox-cache.ts";
import type { SunFinding } from "../analysis/detect-sun.ts";

/**
 * Answers already known, per cache (caches with other stores hold other entries). Kept here,
 * not in the cache: a SkyboxCache stores bytes and knows nothing of suns. In memory, a
 * re-apply gets the same sun object back, by which sun-harmonics.ts keeps the sun's share
 * of the environment it computed. Weak: a cache let go takes its answers with it.
 */
const known = new WeakMap<SkyboxCache, Map<string, SunFinding>>();

/**
 * The finding stored under `key` (a sun, or why there is none), undefined when not known.
 * @param cache the skybox cache, or null for none
 * @param key `sunKey(...)`
 */
export async function cachedSun(cache: SkyboxCache | null, key: string): Promise<SunFinding | undefined> {
  if (!cache) return undefined;
  const memory = known.get(cache);
  if (memory?.has(key)) return memory.get(key);
  const bytes = await cache.get(key).catch(() => null);
  if (!bytes) return undefined;
  try {
    const finding = JSON.parse(new TextDecoder().decode(bytes)) as SunFinding;
    remember(cache, key, finding);
    return finding;
  } catch {
    return undefined;
  }
}

/**
 * Keeps the answer for `key`.
 * @returns resolves once stored; never rejects (a cache that fails costs the next apply a decode)
 */
export async function storeSun(cache: SkyboxCache | null, key: string, finding: SunFinding): Promise<void> {
  if (!cache) return;
  remember(cache, key, finding);
  await cache.put(key, new TextEncoder().encode(JSON.stringify(finding))).catch(() => undefined);
}

function remember(cache: SkyboxCache, key: string, finding: SunFinding): void {
  let memory = known.get(cache);
  if (!memory) known.set(cache, (memory = new Map<string, SunFinding>()));
  memory.set(key, finding);
}
