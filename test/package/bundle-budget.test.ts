/**
 * The browser entry `babylon-skybox` stays within its budget, bundled as the bench part
 * `bundle` bundles it (test/bench/bundle-size.ts): what loads on import, peers excluded.
 * Also what keeps it there: no classic zod, no HTTP library and no pusher-js in what loads
 * on import, and an app that imports a part only bundles that part.
 */
import { describe, expect, test } from "vitest";
import { bundleSize, CORE_BUDGET, describeContributors, kb, type BundleSize } from "../bench/bundle-size.ts";

const files = (size: BundleSize) => size.biggestFiles.map((f) => f.name);

describe("the core entry's size", () => {
  test(`at most ${kb(CORE_BUDGET)} min+gzip on import`, async () => {
    const core = await bundleSize("src/index.ts");
    const biggest = core.biggestFiles
      .slice(0, 8)
      .map((f) => `${f.name} ${kb(f.bytes)}`)
      .join(", ");
    expect(
      core.gzip,
      `babylon-skybox weighs ${kb(core.gzip)} min+gzip on import, over its ${kb(CORE_BUDGET)} budget. Biggest (minified): ${describeContributors(core.contributors)}; files: ${biggest}`,
    ).toBeLessThanOrEqual(CORE_BUDGET);
    const heavy = files(core).filter((f) => /node_modules\/(zod\/v4\/classic|ky|pusher-js)\//.test(f));
    expect(heavy, "classic zod, ky and pusher-js stay out of what loads on import").toEqual([]);
  });

  test("an app that only calls applySkybox bundles none of the client's other routes", async () => {
    const applyOnly = await bundleSize({ contents: 'export { applySkybox } from "./src/index.ts"' });
    const unused = [
      "client/generation-routes",
      "client/batch-routes",
      "client/style-routes",
      "requests/generate-params",
      "requests/list-queries",
      "rules/generation-rules",
    ];
    expect(files(applyOnly).filter((f) => unused.some((u) => f.includes(`src/api/${u}.ts`)))).toEqual([]);
  });

  test("an app that imports only the error helpers bundles no zod (sideEffects: false holds)", async () => {
    const errorsOnly = await bundleSize({ contents: 'export { isSkyboxApiError, errorKindOf } from "./src/index.ts"' });
    expect(files(errorsOnly).filter((f) => f.includes("node_modules/"))).toEqual([]);
    expect(errorsOnly.gzip).toBeLessThan(2048);
  });
});
