// `npm install` in a clone of this repository: links the package's own command into
// node_modules/.bin, as npm does for a dependency's, so `npx babylon-skybox …` (the docs'
// and the playground's commands) works here too. npm links the bins of dependencies only,
// and `npx` finds this package by its name but then looks for its bin in node_modules/.bin.
import { mkdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { bin } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const dir = join(root, "node_modules", ".bin");
mkdirSync(dir, { recursive: true });
for (const [name, target] of Object.entries(bin)) {
  const link = join(dir, name);
  rmSync(link, { force: true });
  symlinkSync(relative(dir, join(root, target)), link);
}
