/**
 * mulberry32: a small seeded generator, so a randomised run can be replayed from its seed.
 * `random(n)` is an integer in [0, n); `pick` one item of a list; `chance(p)` true with p.
 */
export function seededRandom(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const random = (n: number) => Math.floor(next() * n);
  return Object.assign(random, {
    pick: <T>(items: readonly T[]): T => items[random(items.length)]!,
    chance: (p: number) => next() < p,
  });
}
