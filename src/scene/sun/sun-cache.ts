/**
 * The sun found in a skybox's HDRI, kept with the skybox in its cache: in memory for the
 * page's life, and in the cache's store (a few bytes of JSON beside the downloads and the
 * baked environment), so a re-apply finds its sun without downloading or decoding anything.
 * "No sun" is kept too: it is an answer.
 */
import type { SkyboxCache } from "../skybox-cache.ts";
import type { DetectedSun } from "./detect-sun.ts";

/** Answers already known, per cache (caches with other stores hold other entries). */
const known = new WeakMap<SkyboxCache, Map<string, DetectedSun | null>>();

/**
 * The sun stored under `key`: a sun, null for "no sun", undefined when not known.
 * @param cache the skybox cache, or null for none
 * @param key `sunKey(...)`
 */
export async function cachedSun(cache: SkyboxCache | null, key: string): Promise<DetectedSun | null | undefined> {
  if (!cache) return undefined;
  const memory = known.get(cache);
  if (memory?.has(key)) return memory.get(key);
  const bytes = await cache.get(key).catch(() => null);
  if (!bytes) return undefined;
  try {
    const { sun } = JSON.parse(new TextDecoder().decode(bytes)) as { sun: DetectedSun | null };
    remember(cache, key, sun);
    return sun;
  } catch {
    return undefined;
  }
}

/**
 * Keeps the answer for `key`.
 * @returns resolves once stored; never rejects (a cache that fails costs the next apply a decode)
 */
export async function storeSun(cache: SkyboxCache | null, key: string, sun: DetectedSun | null): Promise<void> {
  if (!cache) return;
  remember(cache, key, sun);
  await cache.put(key, new TextEncoder().encode(JSON.stringify({ sun }))).catch(() => undefined);
}

function remember(cache: SkyboxCache, key: string, sun: DetectedSun | null): void {
  let memory = known.get(cache);
  if (!memory) known.set(cache, (memory = new Map()));
  memory.set(key, sun);
}
