/**
 * The shape of src/ that lets a newcomer find things: one file-name casing, a name that says
 * which file it is without its folder, and folders short enough to read at a glance.
 */
import { readdirSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { describe, expect, test } from "vitest";

const SRC = resolve(import.meta.dirname, "../src");
/** About what a reader takes in at a glance; a folder over it wants subfolders named after what they hold. */
const MOST_FILES_PER_FOLDER = 15;
const KEBAB_CASE = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** A file's name is kebab-case before its extensions (`push-feed.ts`, `render.worker.ts`). */
const nameOf = (file: string) => file.split(".")[0]!;
/** Entry files repeat by convention: each folder's public face. */
const REPEATABLE = new Set(["index.ts"]);

interface Folder {
  path: string;
  files: string[];
}

function foldersUnder(dir: string): Folder[] {
  const entries = readdirSync(dir, { withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => e.name);
  const own = { path: relative(SRC, dir) || ".", files };
  return [own, ...entries.filter((e) => e.isDirectory()).flatMap((e) => foldersUnder(join(dir, e.name)))];
}

const folders = foldersUnder(SRC);
const files = folders.flatMap((f) => f.files.map((name) => join(f.path, name)));

describe("the source tree", () => {
  test("is read whole", () => {
    expect(files.length).toBeGreaterThan(200);
  });

  test("names every file and folder in kebab-case", () => {
    const folderNames = folders.map((f) => basename(f.path)).filter((n) => n !== ".");
    expect([...files.map((f) => basename(f)), ...folderNames].filter((n) => !KEBAB_CASE.test(nameOf(n)))).toEqual([]);
  });

  test("gives every file a base name of its own", () => {
    const byName = new Map<string, string[]>();
    for (const f of files.filter((f) => !REPEATABLE.has(basename(f)))) byName.set(basename(f), [...(byName.get(basename(f)) ?? []), f]);
    expect([...byName.values()].filter((same) => same.length > 1)).toEqual([]);
  });

  test(`keeps at most ${MOST_FILES_PER_FOLDER} files at the top of each folder`, () => {
    expect(folders.filter((f) => f.files.length > MOST_FILES_PER_FOLDER).map((f) => `${f.path}: ${f.files.length}`)).toEqual([]);
  });
});
