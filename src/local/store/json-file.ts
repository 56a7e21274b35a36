import { mkdirSync, openSync, readFileSync, renameSync, writeSync, fsyncSync, closeSync, existsSync } from "node:fs";
import { dirname } from "node:path";
import type * as z from "zod";

/**
 * A JSON document on disk, validated on load and written atomically (temporary file,
 * fsync, rename), so a kill at any moment leaves either the old or the new version.
 * Saves are coalesced: `save()` schedules one write, `flush()` writes now.
 */
export class JsonFile<S extends z.ZodType> {
  private _timer: ReturnType<typeof setTimeout> | null = null;
  private _pending: (() => z.output<S>) | null = null;

  constructor(
    readonly path: string,
    private readonly _schema: S,
    private readonly _delayMs = 50,
  ) {}

  /** The stored document, or `fallback` when there is none. A corrupt file is an error, never silently replaced. */
  load(fallback: z.output<S>): z.output<S> {
    if (!existsSync(this.path)) return fallback;
    const parsed = this._schema.safeParse(JSON.parse(readFileSync(this.path, "utf8")));
    if (!parsed.success) throw new Error(`${this.path} is not valid: ${parsed.error.issues[0]?.path.join(".")}: ${parsed.error.issues[0]?.message}`);
    return parsed.data;
  }

  /** Schedules a write of what `snapshot` returns at write time. */
  save(snapshot: () => z.output<S>): void {
    this._pending = snapshot;
    this._timer ??= setTimeout(() => this.flush(), this._delayMs);
  }

  /** Writes a scheduled save now. */
  flush(): void {
    if (this._timer) clearTimeout(this._timer);
    this._timer = null;
    const snapshot = this._pending;
    this._pending = null;
    if (snapshot) writeAtomically(this.path, JSON.stringify(snapshot()));
  }
}

export function writeAtomically(path: string, text: string, mode = 0o600): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, "w", mode);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}
