#!/usr/bin/env node
// Builds what the package publishes: `tsc -p tsconfig.build.json` compiles src/ to dist/
// (ESM, .d.ts, source maps, one file per module), then the files tsc does not emit are copied
// beside their modules: hand-written declaration files (the Inspector typings shim) and plain
// .mjs modules (the render workers' bootstrap). Run by `npm run build` and before `npm pack`.
import { execFileSync } from "node:child_process";
import { cpSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const src = join(root, "src");
const dist = join(root, "dist");

rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
execFileSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json")], { stdio: "inherit" });

const copied = readdirSync(src, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".d.ts") || f.endsWith(".mjs"));
for (const file of copied) cpSync(join(src, file), join(dist, file));
console.log(`dist/ built; copied ${copied.map((f) => relative(src, join(src, f))).join(", ")}`);
