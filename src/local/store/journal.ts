import { createHash } from "node:crypto";
import { closeSync, existsSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import type * as z from "zod";
import { syncFolder, writeFully } from "./durable-files.ts";

/** What the journal read back: its complete entries, and whether a torn last line was left out. */
export interface JournalContents<T> {
  entries: T[];
  tornTail: boolean;
}

const checksum = (json: string) => createHash("sha256").update(json).digest("hex").slice(0, 16);

/**
 * An append-only log of JSON entries, one a line (`<checksum> <json>`), each written with a
 * single write and fsynced before `append` returns: the write-ahead log of the local store.
 *
 * A kill during an append can leave only the last line incomplete; such a tail was never
 * acknowledged, and reading leaves it out. A bad line followed by good ones is damage, not a
 * torn write, and is an error: nothing acknowledged is dropped silently.
 */
export class Journal<S extends z.ZodType> {
  private _fd: number | null = null;
  private _bytes = 0;

  constructor(
    readonly path: string,
    private readonly _schema: S,
  ) {}

  /** Bytes appended since the journal was last empty. */
  get size(): number {
    return this._bytes;
  }

  read(): JournalContents<z.output<S>> {
    if (!existsSync(this.path)) return { entries: [], tornTail: false };
    const text = readFileSync(this.path, "utf8");
    this._bytes = Buffer.byteLength(text);
    const lines = text.split("\n");
    const tail = lines.pop()!; // "" when the file ends with a complete line
    const entries: z.output<S>[] = [];
    let firstBad = -1;
    lines.forEach((line, at) => {
      const entry = this.parse(line);
      if (entry === undefined) firstBad = firstBad < 0 ? at : firstBad;
      else if (firstBad >= 0)
        throw new Error(`${this.path} is damaged at line ${firstBad + 1} (later lines are intact); move it aside to start without it`);
      else entries.push(entry);
    });
    return { entries, tornTail: firstBad >= 0 || tail !== "" };
  }

  /** Appends one entry; on disk when this returns. */
  append(entry: z.output<S>): void {
    const json = JSON.stringify(entry);
    const line = `${checksum(json)} ${json}\n`;
    writeFully(this.fd(), line);
    fsyncSync(this.fd());
    this._bytes += Buffer.byteLength(line);
  }

  /** Empties the journal (once everything in it is in the snapshots). */
  clear(): void {
    ftruncateSync(this.fd(), 0);
    fsyncSync(this.fd());
    this._bytes = 0;
  }

  close(): void {
    if (this._fd !== null) closeSync(this._fd);
    this._fd = null;
  }

  private fd(): number {
    if (this._fd !== null) return this._fd;
    mkdirSync(dirname(this.path), { recursive: true });
    const created = !existsSync(this.path);
    this._fd = openSync(this.path, "a", 0o600);
    if (created) syncFolder(dirname(this.path));
    return this._fd;
  }

  private parse(line: string): z.output<S> | undefined {
    const space = line.indexOf(" ");
    const json = line.slice(space + 1);
    if (space !== 16 || checksum(json) !== line.slice(0, space)) return undefined;
    const parsed = this._schema.safeParse(JSON.parse(json));
    if (!parsed.success)
      throw new Error(
        `${this.path}: an entry does not match the store's schema: ${parsed.error.issues[0]?.path.join(".")}: ${parsed.error.issues[0]?.message}`,
      );
    return parsed.data;
  }
}
