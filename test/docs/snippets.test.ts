/**
 * Every ```ts / ```typescript / ```js snippet of README.md and docs/*.md type-checks against
 * the package's sources, so a renamed option breaks the build, not the reader. A block that
 * is deliberately not compilable is marked ```ts nocheck.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { snippetErrors, snippetsOf } from "./doc-snippets.ts";

describe("the docs' code snippets", () => {
  test("all type-check against the package's sources", () => {
    const snippets = snippetsOf();
    expect(snippets.length).toBeGreaterThan(10);
    expect(snippetErrors(snippets)).toEqual([]);
  }, 120_000);
});

describe("the check finds a snippet that no longer compiles", () => {
  const root = mkdtempSync(join(tmpdir(), "doc-snippets-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, "docs"));
  writeFileSync(join(root, "README.md"), "# Top\n\n```sh\nnpm test\n```\n");
  writeFileSync(
    join(root, "docs", "guide.md"),
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

  test("a renamed option is an error at its line in the doc; nocheck and shell blocks are left out", () => {
    const snippets = snippetsOf(root);
    expect(snippets.map((s) => `${s.doc}:${s.line}`)).toEqual(["docs/guide.md:4", "docs/guide.md:13"]);
    const errors = snippetErrors(snippets);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/^docs\/guide\.md:5: .*'lightning'/);
    expect(errors[1]).toMatch(/^docs\/guide\.md:14: .*'allowedOrigin'/);
  }, 120_000);
});
