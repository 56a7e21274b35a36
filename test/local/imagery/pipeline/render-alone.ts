/**
 * A process that does nothing but render (render-pool.test.ts runs it): nothing else keeps
 * it alive, so it ends early if the pool lets it while a render waits on its workers, or
 * while close() stops them (the render's collection answers still on their way).
 */
import { createImageryPool } from "../../../../src/local/imagery/pipeline/render-pool.ts";

const pool = createImageryPool({ size: 2 });
await pool.generate(
  {
    prompt: "alpine lake at sunset",
    negativeText: null,
    enhancePrompt: false,
    seed: 1,
    look: "anime",
    model: 3,
    variant: null,
    softLines: false,
    size: { width: 256, height: 128 },
    thumbSize: { width: 64, height: 32 },
    depthSize: { width: 128, height: 64 },
  },
  process.argv[2]!,
);
console.log("rendered");
await pool.close();
console.log("closed");
