import { existsSync, readFileSync } from "node:fs";
import type * as z from "zod";
import { writeAtomically } from "./durable-files.ts";

/**
 * A JSON document on disk, validated on load and written atomically (temporary file,
 * fsync, rename, fsync of the folder), so a kill at any moment leaves either the old or
 * the new version, and a written version survives a power cut.
 */
export class JsonFile<S extends z.ZodType> {
  constructor(
    readonly path: string,
    private readonly _schema: S,
  ) {}

  /** The stored document, or `fallback` when there is none. A corrupt file is an error, never silently replaced. */
  load(fallback: z.output<S>): z.output<S> {
    if (!existsSync(this.path)) return fallback;
    const parsed = this._schema.safeParse(JSON.parse(readFileSync(this.path, "utf8")));
    if (!parsed.success)
      throw new Error(`${this.path} is not valid: ${parsed.error.issues[0]?.path.join(".")}: ${parsed.error.issues[0]?.message}`);
    return parsed.data;
  }

  /** Replaces the document; on disk when this returns. */
  write(value: z.output<S>): void {
    writeAtomically(this.path, JSON.stringify(value));
  }
}
