/**
 * Writing files so that what the service has announced is on disk: whole files replaced
 * atomically, appends and renames fsynced, files written by others (renderers) flushed
 * before their record says they exist.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, writeSync } from "node:fs";
import { open, readdir } from "node:fs/promises";
import { dirname, join } from "node:path";

/** Writes a whole file so that it is either absent, the old one, or complete and durable. */
export function writeAtomically(path: string, content: string | Uint8Array, mode = 0o600): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, "w", mode);
  try {
    writeFully(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  syncFolder(dirname(path));
}

/** writeSync until every byte is written (one call may write fewer). */
export function writeFully(fd: number, content: string | Uint8Array): void {
  const bytes = typeof content === "string" ? Buffer.from(content) : content;
  for (let at = 0; at < bytes.byteLength;) at += writeSync(fd, bytes, at);
}

/** Makes a rename or a new file in `dir` durable (a no-op where folders cannot be opened, as on Windows). */
export function syncFolder(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Folders cannot be fsynced on every platform; the rename itself is still atomic.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Flushes files already written (a render's outputs, an export) and their folder, before a record points at them. */
export async function syncFiles(...paths: string[]): Promise<void> {
  for (const path of paths) {
    const file = await open(path, "r");
    try {
      await file.sync();
    } finally {
      await file.close();
    }
  }
  new Set(paths.map((p) => dirname(p))).forEach(syncFolder);
}

/** Every file directly in `dir`, flushed (see syncFiles). */
export async function syncFolderFiles(dir: string): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  await syncFiles(...entries.filter((e) => e.isFile()).map((e) => join(dir, e.name)));
  syncFolder(dir);
}
