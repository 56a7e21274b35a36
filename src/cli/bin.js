#!/usr/bin/env node
// The package ships TypeScript sources; tsx runs them (and the render workers they start).
import { register } from "tsx/esm/api";

register();
const { main } = await import("./main.ts");
await main(process.argv.slice(2));
