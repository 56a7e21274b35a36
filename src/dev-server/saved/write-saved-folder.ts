/**
 * Writes a saved skybox's folder (skybox.json and its files) from Node: what the pane's
 * "Save to project" route and `babylon-skybox save` share. The manifest is built from the
 * files' own bytes (sizes and SHA-256) and validated by the schema `loadSkybox` reads, so a
 * writer can never produce a folder the loader refuses. The folder appears whole or not at
 * all (written beside it, then renamed), and an existing one is replaced only when asked.
 */
import { existsSync, readdirSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { parseSavedSkybox, savedFileOf } from "../../api/saved/saved-files.ts";
import { MANIFEST_FILE, SAVED_SKYBOX_FORMAT, type SavedFile, type SavedSkybox } from "../../api/saved/saved-skybox.ts";

/** A file to write, with the manifest fields its entry has besides name, size and hash. */
export interface FileToWrite<Extra extends object = object> {
  path: string;
  bytes: Uint8Array;
  extra: Extra;
}

/** Everything of the manifest but what the writer computes (format, file entries, `saved.at`). */
export interface SavedFolderContents {
  skybox: SavedSkybox["skybox"];
  settings: SavedSkybox["settings"];
  sun: SavedSkybox["sun"];
  by: SavedSkybox["saved"]["by"];
  files: {
    environment: FileToWrite<{ format: "env" | "hdr" }>;
    hdr?: FileToWrite | undefined;
    background: FileToWrite<{ width: number; height: number }>;
    backdrop?: FileToWrite<{ format: "glb" | "depth-png" }> | undefined;
  };
}

/** Thrown when the folder exists and `overwrite` was not given. */
export class FolderExistsError extends Error {
  override name = "FolderExistsError";
  constructor(readonly dir: string) {
    super(`${dir} already exists and is not empty; choose another folder, or allow overwriting it`);
  }
}

/**
 * Writes the folder.
 * @param dir the folder (created; its parent too)
 * @param contents the manifest's fields and the files
 * @param overwrite replace an existing, non-empty folder
 * @returns the manifest written
 */
export async function writeSavedFolder(dir: string, contents: SavedFolderContents, overwrite = false): Promise<SavedSkybox> {
  if (!overwrite && existsSync(dir) && readdirSync(dir).length > 0) throw new FolderExistsError(dir);
  const files = await entriesOf(contents.files);
  const manifest = parseSavedSkybox({
    format: SAVED_SKYBOX_FORMAT,
    skybox: contents.skybox,
    settings: contents.settings,
    sun: contents.sun,
    files,
    saved: { by: contents.by, at: new Date().toISOString() },
  });
  const written = Object.values(contents.files).filter((f): f is FileToWrite => f !== undefined);
  const names = written.map((f) => f.path);
  if (new Set([...names, MANIFEST_FILE]).size !== names.length + 1)
    throw new Error(`Two files of the saved skybox share a name: ${names.join(", ")}`);
  await mkdir(dirname(dir), { recursive: true });
  const staging = join(dirname(dir), `.${basename(dir)}.saving-${process.pid}-${Date.now()}`);
  try {
    await mkdir(staging);
    for (const f of written) await writeFile(join(staging, f.path), f.bytes);
    await writeFile(join(staging, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    if (existsSync(dir)) await rm(dir, { recursive: true, force: true });
    await rename(staging, dir);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return manifest;
}

async function entriesOf(files: SavedFolderContents["files"]): Promise<Record<string, SavedFile>> {
  const out: Record<string, SavedFile> = {};
  for (const [role, file] of Object.entries(files)) if (file) out[role] = { ...(await savedFileOf(file.path, file.bytes)), ...file.extra };
  return out;
}
