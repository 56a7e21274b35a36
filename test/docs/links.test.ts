/**
 * The links and pictures of README.md and docs/*.md resolve: each relative link to a file
 * that exists and each #anchor to a heading of it; each picture to an image file. The
 * screenshots are written by test/inspector/pane.browser.test.ts (UPDATE_SCREENSHOT=1).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { brokenLinks, missingPictures } from "./doc-links.ts";

describe("the docs' links and pictures", () => {
  test("every relative link and #anchor of README.md and docs/*.md resolves", () => {
    expect(brokenLinks()).toEqual([]);
  });

  test("every picture the docs show exists and is an image", () => {
    expect(missingPictures()).toEqual([]);
  });
});

describe("the checks find what is broken", () => {
  const root = mkdtempSync(join(tmpdir(), "docs-check-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, "docs"));
  writeFileSync(join(root, "shot.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]));
  writeFileSync(join(root, "fake.png"), "not a picture");
  writeFileSync(
    join(root, "README.md"),
    "# Top\n\n## The `sun` light\n\n[ok](docs/guide.md#a-heading) [ok](#the-sun-light) [web](https://example.com/x)\n" +
      "[gone](docs/missing.md) [bad anchor](docs/guide.md#nowhere) [self](#nope)\n\n" +
      "![ok](shot.png) ![missing](none.png) ![fake](fake.png)\n\n```md\n[in code](not-checked.md)\n```\n",
  );
  writeFileSync(join(root, "docs", "guide.md"), "# Guide\n\n## A heading\n\n[back](../README.md#top)\n");

  test("a missing file, an anchor with no heading and a link inside code are told apart (lines are the paragraph's first)", () => {
    expect(brokenLinks(root)).toEqual([
      "README.md:5: docs/missing.md: docs/missing.md does not exist",
      "README.md:5: docs/guide.md#nowhere: docs/guide.md has no heading #nowhere",
      "README.md:5: #nope: README.md has no heading #nope",
    ]);
  });

  test("a missing picture and a file that is not one are reported", () => {
    expect(missingPictures(root)).toEqual([
      "README.md:8: none.png: no such file",
      "README.md:8: fake.png: the file is not the picture its name says",
    ]);
  });
});
