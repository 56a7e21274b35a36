/**
 * Every export of every entry point in package.json's "exports" has a doc comment, as do the
 * methods and accessors of exported classes and interfaces, and every {@link} resolves: what
 * `npm run docs` (TypeDoc, typedoc.json) would otherwise warn about.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { referenceProblems } from "./doc-coverage.ts";
import { ROOT } from "./doc-files.ts";

const json = (path: string) => JSON.parse(readFileSync(join(ROOT, path), "utf8"));

describe("the API reference", () => {
  test("covers every entry point of package.json's exports", () => {
    const exported = Object.entries(json("package.json").exports as Record<string, string | { types: string }>)
      .filter(([, target]) => typeof target === "object")
      .map(([, target]) => (target as { types: string }).types.replace(/^\.\/dist\//, "src/").replace(/\.d\.ts$/, ".ts"));
    expect([...json("typedoc.json").entryPoints].sort()).toEqual(exported.sort());
  });

  test("has a doc comment for every exported member and no broken {@link}", async () => {
    expect(await referenceProblems()).toEqual([]);
  }, 120_000);
});

describe("the check finds what is missing", () => {
  const dir = mkdtempSync(join(tmpdir(), "doc-coverage-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const settings = json("typedoc.json");
  writeFileSync(join(dir, "typedoc.json"), JSON.stringify({ ...settings, entryPoints: ["index.ts"], tsconfig: "tsconfig.json" }));
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { strict: true, target: "ES2022", module: "ESNext", moduleResolution: "Bundler", types: [] },
      include: ["index.ts"],
    }),
  );
  writeFileSync(
    join(dir, "index.ts"),
    [
      "/** Documented; see {@link nowhere}. */",
      "export const documented = 1;",
      "export function bare(): void {}",
      "/** An interface whose method is not documented. */",
      "export interface Shape { area(): number }",
    ].join("\n"),
  );

  test("an export without a comment, an undocumented method and a broken link are each reported", async () => {
    const problems = await referenceProblems(join(dir, "typedoc.json"));
    expect(problems.some((p) => p.includes("bare") && p.includes("does not have any documentation"))).toBe(true);
    expect(problems.some((p) => p.includes("Shape.area") && p.includes("does not have any documentation"))).toBe(true);
    expect(problems.some((p) => p.includes("nowhere"))).toBe(true);
    expect(problems.some((p) => p.includes("documented (") && p.includes("does not have any documentation"))).toBe(false);
  }, 60_000);
});
