/**
 * A process that does nothing but render (render-pool.test.ts runs it): nothing else keeps
 * it alive, so it ends early if the pool lets it while a render waits on its workers, or
 * while close() stops them (the render's collection answers still on their way).
 */
import { createImageryPool } from "../../../../src/local/imagery/pipeline/render-pool.ts";
import { smallRender } from "./small-render.ts";

const pool = createImageryPool({ size: 2 });
await pool.generate(smallRender({ prompt: "alpine lake at sunset", look: "anime" }), process.argv[2]!);
console.log("rendered");
await pool.close();
console.log("closed");
