/**
 * The project a Vite app belongs to: the nearest folder at or above Vite's root that holds a
 * package.json. Save to project names the folders it writes relative to it, because that is
 * where a user runs `npm run dev` and reads paths from (Vite's root may be a subfolder, as
 * the playground's is).
 */
import { existsSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

/** @param viteRoot Vite's root @returns the project's folder (Vite's root when no package.json is above it) */
export function projectRoot(viteRoot: string): string {
  for (let dir = resolve(viteRoot); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) return resolve(viteRoot);
  }
}

/** A path as the project names it: relative to it, with forward slashes. */
export function projectPath(project: string, path: string): string {
  return relative(project, path).split(sep).join("/") || ".";
}
