/**
 * Every ```ts / ```typescript / ```js snippet of README.md and docs/*.md type-checks against
 * the package's sources, so a renamed option breaks the build, not the reader. A block that
 * is deliberately not compilable is marked ```ts nocheck. A made-up guide with a renamed
 * option goes through the same program (one type-check for both) and must be caught.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { snippetErrors, snippetsOf, type Snippet } from "./doc-snippets.ts";

const root = mkdtempSync(join(tmpdir(), "doc-snippets-"));
mkdirSync(join(root, "docs"));
writeFileSync(join(root, "README.md"), "# Top\n\n```sh\nnpm test\n```\n");
writeFileSync(
  join(root, "docs", "broken.md"),
  [
    "# Guide",
    "",
    "```ts",
    'import { applySkybox } from "babylon-skybox";',
    "await applySkybox(scene, 46, { lightning: false });",
    "```",
    "",
    "```ts nocheck",
    "await applySkybox(scene, 46, { …",
    "```",
    "",
    "```js",
    'import { createSkyboxProxyMiddleware } from "babylon-skybox/proxy";',
    'createSkyboxProxyMiddleware({ apiKey: "k", allowedOrigin: ["https://my.app"] });',
    "```",
  ].join("\n"),
);

let docs: Snippet[];
let made: Snippet[];
let errors: string[];
beforeAll(() => {
  docs = snippetsOf();
  made = snippetsOf(root);
  errors = snippetErrors([...docs, ...made]);
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the docs' code snippets", () => {
  test("all type-check against the package's sources", () => {
    expect(docs.length).toBeGreaterThan(10);
    expect(errors.filter((e) => !e.startsWith("docs/broken.md:"))).toEqual([]);
  });
});

describe("the check finds a snippet that no longer compiles", () => {
  test("a renamed option is an error at its line in the doc; nocheck and shell blocks are left out", () => {
    expect(made.map((s) => `${s.doc}:${s.line}`)).toEqual(["docs/broken.md:4", "docs/broken.md:13"]);
    const found = errors.filter((e) => e.startsWith("docs/broken.md:"));
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(/^docs\/broken\.md:5: .*'lightning'/);
    expect(found[1]).toMatch(/^docs\/broken\.md:14: .*'allowedOrigin'/);
  });
});
