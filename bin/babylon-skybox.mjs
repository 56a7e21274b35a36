#!/usr/bin/env node
// The `babylon-skybox` command. Installed from npm, the package holds the compiled
// dist/cli/bin.js and runs it on plain Node. In a clone of the repository the sources are
// there and the build may not be (or may be older than them), so `npx babylon-skybox` runs
// the sources through tsx, a development dependency of the repository.
import { existsSync } from "node:fs";

const sources = new URL("../src/cli/main.ts", import.meta.url);
if (existsSync(sources)) {
  const { register } = await import("tsx/esm/api");
  register();
  const { main } = await import(sources.href);
  await main(process.argv.slice(2));
} else {
  await import(new URL("../dist/cli/bin.js", import.meta.url).href);
}
