/**
 * Bench part `bundle`: the browser entry `babylon-skybox` as an app's bundler splits it,
 * against its budget; what an app that only calls `applySkybox` loads; and what weighs most.
 */
import { bundleSize, CORE_BUDGET, describeContributors, kb } from "./bundle-size.ts";

const APPLY_ONLY = 'export { applySkybox } from "./src/index.ts"';

export async function bundleBench(): Promise<string[]> {
  const [core, applyOnly] = await Promise.all([bundleSize("src/index.ts"), bundleSize({ contents: APPLY_ONLY })]);
  const verdict = core.gzip <= CORE_BUDGET ? "within" : "OVER";
  return [
    `core entry, loaded on import: ${kb(core.gzip)} min+gzip (${kb(core.minified)} min); budget ${kb(CORE_BUDGET)}: ${verdict} (${kb(CORE_BUDGET - core.gzip)} left)`,
    `loaded on demand, by dynamic import (${core.lazy.modules.join(", ")}; ${core.lazy.chunks} chunks): ${kb(core.lazy.gzip)} min+gzip`,
    `an app that only calls applySkybox (${APPLY_ONLY}): ${kb(applyOnly.gzip)} min+gzip (${kb(applyOnly.minified)} min)`,
    `biggest in the core entry (minified): ${describeContributors(core.contributors)}`,
    `(esbuild, minify, splitting, es2022, externals @babylonjs/*, react, react-dom, @fluentui/*; test/bench/bundle-size.ts)`,
  ];
}
