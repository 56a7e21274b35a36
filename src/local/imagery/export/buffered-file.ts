/**
 * A file written in large sequential chunks (plus patches at known offsets), so streamed
 * exports cost one system call per few megabytes and no more memory than that.
 */
import { closeSync, openSync, writeSync } from "node:fs";

const CHUNK = 4 << 20;

export class BufferedFile {
  /** Bytes written so far (the offset of the next byte). */
  position = 0;
  private readonly _fd: number;
  private readonly _buffer = new Uint8Array(CHUNK);
  private _used = 0;

  constructor(path: string) {
    this._fd = openSync(path, "w");
  }

  write(bytes: Uint8Array): void {
    if (this._used + bytes.length > CHUNK) this._flush();
    if (bytes.length >= CHUNK) writeSync(this._fd, bytes);
    else {
      this._buffer.set(bytes, this._used);
      this._used += bytes.length;
    }
    this.position += bytes.length;
  }

  /** Overwrites bytes already written (at `offset`, before `position`). */
  patch(bytes: Uint8Array, offset: number): void {
    this._flush();
    writeSync(this._fd, bytes, 0, bytes.length, offset);
  }

  close(): void {
    this._flush();
    closeSync(this._fd);
  }

  private _flush(): void {
    if (this._used) writeSync(this._fd, this._buffer, 0, this._used);
    this._used = 0;
  }
}

/** Lets other work (HTTP requests, timers) run between rows of a long export. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
