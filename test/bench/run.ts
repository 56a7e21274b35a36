/**
 * `npm run bench`: prints the figures each capability is judged by. Figures, not
 * assertions: nothing here fails on a number.
 */
import { bundleSize } from "./bundle-size.ts";
import { imageryBench } from "./imagery-bench.ts";
import { localBench } from "./local-bench.ts";
import { proxyBench } from "./proxy-bench.ts";
import { paneBench } from "./pane-bench.ts";
import { sceneBench } from "./scene-bench.ts";
import { statusBench } from "./status-bench.ts";

const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

async function main() {
  console.log("# babylon-skybox benchmark\n");
  const core = await bundleSize("src/index.ts");
  console.log("## Client bundle (browser entry `babylon-skybox`, peers excluded)");
  console.log(`minified: ${kb(core.minified)}  min+gzip: ${kb(core.gzip)}\n`);

  console.log("## Local service imagery (full sizes)");
  for (const line of await imageryBench()) console.log(line);
  console.log();

  console.log("## Local Skybox service");
  for (const line of await localBench()) console.log(line);
  console.log();

  console.log("## Proxy versus the local service called directly");
  for (const line of await proxyBench()) console.log(line);
  console.log();

  console.log("## Status tracking: requests one generation costs");
  console.log(await statusBench());
  console.log();

  console.log("## applySkybox in Chromium (software WebGL, cube 256, quality 64)");
  for (const line of await sceneBench()) console.log(line);
  console.log();

  console.log("## Inspector pane");
  for (const line of await paneBench()) console.log(line);
  console.log();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
