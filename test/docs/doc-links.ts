/**
 * What the links and pictures of the docs point at: every relative link names a file that
 * exists and, with `#anchor`, a heading of that file; every picture is an image file there.
 * Web links are not followed (the tests run offline).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { anchorsOf, docFiles, linksOf, readDoc, ROOT, type DocFile } from "./doc-files.ts";

const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;

/** The first bytes of the picture formats a doc may show. */
const IMAGE_SIGNATURES: Record<string, number[]> = {
  png: [0x89, 0x50, 0x4e, 0x47],
  jpg: [0xff, 0xd8, 0xff],
  jpeg: [0xff, 0xd8, 0xff],
  webp: [0x52, 0x49, 0x46, 0x46],
  gif: [0x47, 0x49, 0x46],
};

/** Every broken relative link or anchor of the docs under `root`, as `file:line: why`. */
export function brokenLinks(root = ROOT): string[] {
  const docs = new Map<string, DocFile>();
  const doc = (path: string) => docs.get(path) ?? docs.set(path, readDoc(path, root)).get(path)!;
  const broken: string[] = [];
  for (const path of docFiles(root)) {
    for (const link of linksOf(doc(path)).filter((l) => l.kind === "link" && !EXTERNAL.test(l.target))) {
      const [file = "", anchor] = link.target.split("#");
      const target = file ? normalize(join(dirname(path), decodeURIComponent(file))) : path;
      const where = `${path}:${link.line}: ${link.target}`;
      if (!existsSync(join(root, target))) broken.push(`${where}: ${target} does not exist`);
      else if (anchor !== undefined && !target.endsWith(".md")) broken.push(`${where}: an anchor into a file that is not Markdown`);
      else if (anchor !== undefined && !anchorsOf(doc(target)).has(anchor)) broken.push(`${where}: ${target} has no heading #${anchor}`);
    }
  }
  return broken;
}

/** Every picture of the docs under `root` that is missing or not an image, as `file:line: why`. */
export function missingPictures(root = ROOT): string[] {
  const missing: string[] = [];
  for (const path of docFiles(root)) {
    for (const image of linksOf(readDoc(path, root)).filter((l) => l.kind === "image")) {
      const where = `${path}:${image.line}: ${image.target}`;
      if (EXTERNAL.test(image.target)) {
        missing.push(`${where}: pictures must be files of the repository, not web addresses`);
        continue;
      }
      const file = join(root, dirname(path), decodeURIComponent(image.target));
      const signature = IMAGE_SIGNATURES[file.split(".").pop()!.toLowerCase()];
      if (!existsSync(file) || !statSync(file).isFile()) missing.push(`${where}: no such file`);
      else if (!signature) missing.push(`${where}: not a PNG, JPEG, WebP or GIF`);
      else if (!readFileSync(file).subarray(0, signature.length).equals(Buffer.from(signature)))
        missing.push(`${where}: the file is not the picture its name says`);
    }
  }
  return missing;
}
