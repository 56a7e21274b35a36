#!/usr/bin/env node
// The `babylon-skybox` command as published: compiled to dist/cli/bin.js, it runs on plain
// Node with no loader. From the sources, run `tsx src/cli/main.ts` instead.
import { main } from "./main.ts";

await main(process.argv.slice(2));
