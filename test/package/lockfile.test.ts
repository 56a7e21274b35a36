/**
 * `npm install` on a clean clone must leave the committed lockfile as it is (it rewrote it
 * when its engines disagreed with package.json). npm copies these fields of package.json
 * into the lockfile's root entry; any difference is what the next install would write.
 */
import { readFileSync } from "node:fs";
import { expect, test } from "vitest";

const json = (path: string) => JSON.parse(readFileSync(path, "utf8"));

test("the lockfile's root entry says what package.json says", () => {
  const manifest = json("package.json");
  const root = json("package-lock.json").packages[""];
  for (const field of [
    "name",
    "version",
    "license",
    "engines",
    "dependencies",
    "devDependencies",
    "peerDependencies",
    "peerDependenciesMeta",
  ]) {
    expect(root[field], field).toEqual(manifest[field]);
  }
  expect(root.bin).toEqual(
    Object.fromEntries(Object.entries(manifest.bin as Record<string, string>).map(([k, v]) => [k, v.replace(/^\.\//, "")])),
  );
});
