/**
 * Bench-only: preloaded with `node --import ./test/bench/heap-ballast.mjs`, keeps
 * SKYBOX_BENCH_BALLAST_MB megabytes of small live objects in the process's heap, as a large
 * application (a dev server, a big user store) would, so that what a garbage collection costs
 * in proportion to the live heap shows in the figures.
 */
const megabytes = Number(process.env.SKYBOX_BENCH_BALLAST_MB ?? 0);
// About 1 KB each: an array of 100 small integers and a string.
const ballast = Array.from({ length: megabytes * 1000 }, (_, i) => ({ values: new Array(100).fill(i), name: `ballast ${i}` }));
globalThis[Symbol.for("babylon-skybox.benchBallast")] = ballast;
