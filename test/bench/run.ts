/**
 * `npm run bench`: prints the figures each capability is judged by. Figures, not
 * assertions: nothing here fails on a number. `npm run bench -- status proxy` runs those
 * parts only; every part ends with the command that runs it alone.
 */
import { bundleSize } from "./bundle-size.ts";
import { imageryBench } from "./imagery-bench.ts";
import { localBench } from "./local-bench.ts";
import { multiuserBench } from "./multiuser-bench.ts";
import { proxyBench } from "./proxy-bench.ts";
import { paneBench } from "./pane-bench.ts";
import { sceneBench } from "./scene-bench.ts";
import { statusBench } from "./status-bench.ts";
import { statusLoadBench } from "./status-load-bench.ts";
import { sunBench } from "./sun-bench.ts";

const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

interface Part {
  title: string;
  run: () => Promise<string[]>;
}

const PARTS: Record<string, Part> = {
  bundle: {
    title: "Client bundle (browser entry `babylon-skybox`, peers excluded)",
    run: async () => {
      const core = await bundleSize("src/index.ts");
      return [`minified: ${kb(core.minified)}  min+gzip: ${kb(core.gzip)}`];
    },
  },
  imagery: { title: "Local service imagery (full sizes)", run: imageryBench },
  local: { title: "Local Skybox service", run: localBench },
  proxy: { title: "Proxy versus the local service called directly", run: proxyBench },
  multiuser: { title: "The proxy in production: Redis store against memory, events across instances", run: multiuserBench },
  status: {
    title: "Status tracking: requests one generation costs, and the status route under 200 pollers",
    run: async () => [await statusBench(), ...(await statusLoadBench())],
  },
  scene: { title: "applySkybox in Chromium (software WebGL, cube 256, quality 64)", run: sceneBench },
  pane: { title: "Inspector pane", run: paneBench },
  sun: { title: "Sun detection in an 8K HDRI", run: sunBench },
};

async function main() {
  const asked = process.argv.slice(2).filter((a) => a !== "--");
  const unknown = asked.filter((name) => !(name in PARTS));
  if (unknown.length) throw new Error(`No bench part ${unknown.join(", ")}; parts: ${Object.keys(PARTS).join(", ")}`);
  const names = asked.length ? asked : Object.keys(PARTS);
  console.log("# babylon-skybox benchmark\n");
  for (const name of names) {
    const part = PARTS[name]!;
    console.log(`## ${part.title}`);
    for (const line of await part.run()) console.log(line);
    console.log(`(npm run bench -- ${name})\n`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
