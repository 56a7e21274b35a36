/**
 * Where an HTTP/1.1 answer's body ends (RFC 9112 §6.3): nowhere for a HEAD or a 204/304, at
 * its length, at the last chunk of a chunked body (whose framing is taken off), or where the
 * host closes the connection. The body's bytes are cut out of what the socket read, as
 * views of the same memory: nothing is copied.
 */
import { MalformedAnswerError, type RawHeaders } from "./http1-head.ts";

type Emit = (slice: Buffer) => void;

/** Longest chunk-size or trailer line. */
const MAX_LINE = 8 * 1024;

export abstract class BodyFraming {
  /** The framing of an answer to `method` with this status and headers. */
  static of(method: string, status: number, headers: RawHeaders): BodyFraming {
    if (method === "HEAD" || status === 204 || status === 304) return new LengthFraming(0);
    const coding = headers["transfer-encoding"];
    if (coding !== undefined) {
      const last = String(coding).split(",").pop()!.trim().toLowerCase();
      return last === "chunked" ? new ChunkedFraming() : new CloseFraming();
    }
    const length = headers["content-length"];
    if (length === undefined) return new CloseFraming();
    const values = new Set(String(length).split(",").map((v) => v.trim()));
    const only = [...values][0]!;
    if (values.size !== 1 || !/^\d{1,15}$/.test(only)) throw new MalformedAnswerError("The asset host's answer has a malformed Content-Length");
    return new LengthFraming(Number(only));
  }

  /** Whether the whole body has come. */
  abstract get complete(): boolean;
  /** Whether the body carries its own length (else the one sent to the client must go). */
  abstract readonly delimitsItself: boolean;

  /** Passes the body's bytes in `bytes` to `emit`; bytes past the body's end are ignored. */
  abstract feed(bytes: Buffer, emit: Emit): void;

  /** The host closed the connection: whether the body is whole. */
  closed(): boolean {
    return this.complete;
  }
}

class LengthFraming extends BodyFraming {
  readonly delimitsItself = true;
  constructor(private _left: number) {
    super();
  }

  get complete(): boolean {
    return this._left === 0;
  }

  feed(bytes: Buffer, emit: Emit): void {
    const take = Math.min(this._left, bytes.length);
    if (take === 0) return;
    this._left -= take;
    emit(take === bytes.length ? bytes : bytes.subarray(0, take));
  }
}

/** Everything until the host closes: whole by definition when it does. */
class CloseFraming extends BodyFraming {
  readonly delimitsItself = false;
  private _closed = false;

  get complete(): boolean {
    return this._closed;
  }

  feed(bytes: Buffer, emit: Emit): void {
    if (bytes.length) emit(bytes);
  }

  override closed(): boolean {
    this._closed = true;
    return true;
  }
}

/** `size[;ext]CRLF data CRLF` … `0CRLF [trailers] CRLF`. */
class ChunkedFraming extends BodyFraming {
  readonly delimitsItself = false;
  private _state: "size" | "data" | "data-end" | "trailer" | "done" = "size";
  /** The line being read (a chunk size or a trailer), up to its LF. */
  private _line = "";
  private _left = 0;

  get complete(): boolean {
    return this._state === "done";
  }

  feed(bytes: Buffer, emit: Emit): void {
    let at = 0;
    while (at < bytes.length && this._state !== "done") {
      if (this._state === "data") {
        const take = Math.min(this._left, bytes.length - at);
        emit(bytes.subarray(at, at + take));
        at += take;
        this._left -= take;
        if (this._left === 0) this._state = "data-end";
        continue;
      }
      const lf = bytes.indexOf(10, at);
      const end = lf < 0 ? bytes.length : lf;
      this._line += bytes.toString("latin1", at, end);
      if (this._line.length > MAX_LINE) throw new MalformedAnswerError("The asset host's chunked answer has an overlong line");
      at = end + 1;
      if (lf >= 0) this._endLine(this._line.replace(/\r$/, ""));
    }
  }

  private _endLine(line: string): void {
    this._line = "";
    if (this._state === "data-end") {
      if (line !== "") throw new MalformedAnswerError("The asset host's chunk is longer than its size");
      this._state = "size";
    } else if (this._state === "trailer") {
      if (line === "") this._state = "done";
    } else {
      const size = /^([0-9A-Fa-f]{1,12})[ \t]*(?:;.*)?$/.exec(line);
      if (!size) throw new MalformedAnswerError("The asset host's chunked answer has a malformed chunk size");
      this._left = Number.parseInt(size[1]!, 16);
      this._state = this._left === 0 ? "trailer" : "data";
    }
  }
}
