/**
 * `npm run bench`: prints the figures each capability is judged by. Figures, not
 * assertions: nothing here fails on a number. `npm run bench -- status proxy` runs those
 * parts only; every part ends with the command that runs it alone. The same lines, with
 * the machine's state and each part's duration, go to test-results/bench.json.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg } from "node:os";
import { bundleBench } from "./bundle-bench.ts";
import { imageryBench } from "./imagery-bench.ts";
import { localBench } from "./local-bench.ts";
import { monkeyBench } from "./monkey-bench.ts";
import { multiuserBench } from "./multiuser-bench.ts";
import { proxyBench } from "./proxy-bench.ts";
import { paneBench } from "./pane-bench.ts";
import { saveBench } from "./save-bench.ts";
import { sceneBench } from "./scene-bench.ts";
import { shippedBench } from "./shipped-bench.ts";
import { smoothBench } from "./smooth-bench.ts";
import { statusBench } from "./status-bench.ts";
import { statusLoadBench } from "./status-load-bench.ts";
import { sunBench } from "./sun-bench.ts";

interface Part {
  title: string;
  run: () => Promise<string[]>;
}

const PARTS: Record<string, Part> = {
  bundle: { title: "Client bundle (browser entry `babylon-skybox`, peers excluded)", run: bundleBench },
  imagery: { title: "Local service imagery (full sizes)", run: imageryBench },
  local: { title: "Local Skybox service", run: localBench },
  proxy: { title: "Proxy versus the local service called directly", run: proxyBench },
  multiuser: { title: "The proxy in production: Redis store against memory, events across instances", run: multiuserBench },
  status: {
    title: "Status tracking: requests one generation costs, and the status route under 200 pollers",
    run: async () => [await statusBench(), ...(await statusLoadBench())],
  },
  scene: {
    title: "applySkybox in Chromium (software WebGL, cube 256, quality 64)",
    run: async () => [...(await sceneBench()), ...(await smoothBench())],
  },
  pane: { title: "Inspector pane", run: paneBench },
  sun: { title: "Sun detection in an 8K HDRI", run: sunBench },
  save: { title: "Save to project in the dev server (the pane, Chromium, software WebGL)", run: saveBench },
  shipped: { title: "Shipping a skybox: folder bytes, loadSkybox against applySkybox (Chromium, software WebGL)", run: shippedBench },
  monkey: { title: "Randomised user sessions (monkey) against the local service, the proxy and the Vite plugin", run: monkeyBench },
};

async function main() {
  const asked = process.argv.slice(2).filter((a) => a !== "--");
  const unknown = asked.filter((name) => !(name in PARTS));
  if (unknown.length) throw new Error(`No bench part ${unknown.join(", ")}; parts: ${Object.keys(PARTS).join(", ")}`);
  const names = asked.length ? asked : Object.keys(PARTS);
  const report = {
    started: new Date().toISOString(),
    machine: { node: process.version, cpu: cpus()[0]?.model ?? "unknown", cores: availableParallelism(), loadAverageBefore: loadavg() },
    parts: {} as Record<string, { title: string; command: string; seconds: number; lines: string[] }>,
  };
  console.log("# babylon-skybox benchmark\n");
  for (const name of names) {
    const part = PARTS[name]!;
    const command = `npm run bench -- ${name}`;
    console.log(`## ${part.title}`);
    const t0 = performance.now();
    const lines = await part.run();
    for (const line of lines) console.log(line);
    console.log(`(${command})\n`);
    report.parts[name] = { title: part.title, command, seconds: Math.round(performance.now() - t0) / 1000, lines };
  }
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = `${RESULTS_DIR}/bench${asked.length ? `-${names.join("-")}` : ""}.json`;
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`Written to ${file}`);
}

const RESULTS_DIR = "test-results";

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
