/**
 * One asset download: a connection of its own to the asset host (TLS for https), the
 * request written, the answer read off the socket (http1-head.ts, http1-body.ts) into a few
 * read buffers of its own that are used again and again, and the body handed to whoever
 * takes it: written straight into a Node ServerResponse, or read as a web stream.
 *
 * Why not an HTTP client: every client in Node reads each chunk into fresh memory (Node's
 * own copies each body chunk once more, undici's reads every 64 KiB anew), and under that
 * external-memory pressure V8 collects again and again (26 full collections in four 92 MB
 * downloads through Node's client), at a cost in proportion to the process's live heap: a
 * large file through a proxy inside a large dev server crawled. Here a chunk is read into a
 * buffer of the pool, written to the client from there, and the buffer is read into again
 * once the client's socket has taken it: a download of any size allocates no buffer per chunk.
 * While the client cannot take more, or every buffer is still being written, the host's
 * connection is paused: memory stays flat whatever the file's size and the client's pace.
 */
import { connect as netConnect, isIP, type LookupFunction, type Socket } from "node:net";
import type { Writable } from "node:stream";
import { connect as tlsConnect } from "node:tls";
import { BodyFraming } from "./http1-body.ts";
import { headEnd, MalformedAnswerError, MAX_HEAD_BYTES, parseHead, type AnswerHead } from "./http1-head.ts";
import type { DirectSource } from "./response-bodies.ts";

export interface AssetRequest {
  url: URL;
  method: "GET" | "HEAD";
  /** Sent as they are: names and values already checked. */
  headers: Record<string, string>;
  /** Checks the address connected to (address-check.ts); none for the upstream's own host. */
  lookup?: LookupFunction;
  signal: AbortSignal;
  /**
   * The longest silence on the host's connection: the host sending nothing, or a client that
   * takes nothing holding the download up (it is let go, as a client gone).
   */
  timeoutMs: number;
}

export class AssetTimeoutError extends Error {
  override name = "AssetTimeoutError";
}

/** Read buffers of one download: one being read into, the others being written to the client. */
const BUFFERS = 4;
const BUFFER_BYTES = 64 * 1024;

/** Where the body's bytes go; `write` returns false when the taker wants no more for now. */
interface Sink {
  write(bytes: Buffer, written?: () => void): boolean;
  end(): void;
  fail(error: Error): void;
}

/** Body bytes read before anyone took the body, and the read buffer they are in. */
interface Waiting {
  slices: Buffer[];
  buffer: Buffer | null;
}

export class AssetAnswer implements DirectSource {
  /** Settles when the head came, or with why it never will. */
  readonly head: Promise<AnswerHead>;
  private _resolveHead!: (head: AnswerHead) => void;
  private _rejectHead!: (error: unknown) => void;
  private readonly _socket: Socket;
  private readonly _free: Buffer[] = [];
  /** The head's bytes so far; null once it is read. */
  private _headBytes: Buffer | null = Buffer.alloc(0);
  private _framing: BodyFraming | null = null;
  private _sink: Sink | null = null;
  private _waiting: Waiting[] = [];
  /** The taker cannot take more now (no taker yet, a write waits for drain, a web stream waits for its pull). */
  private _held = false;
  private _reading = true;
  private _error: Error | null = null;
  private _done: "ended" | Error | null = null;

  constructor(private readonly _request: AssetRequest) {
    this.head = new Promise((resolve, reject) => {
      this._resolveHead = resolve;
      this._rejectHead = reject;
    });
    for (let i = 0; i < BUFFERS; i++) this._free.push(Buffer.allocUnsafeSlow(BUFFER_BYTES));
    this._socket = connectTo(_request.url, _request.lookup, {
      // Called after each read for the buffer of the next one; the pool is never empty then (see _onRead).
      buffer: () => this._free.pop() ?? Buffer.allocUnsafeSlow(BUFFER_BYTES),
      callback: (length: number, buffer: Buffer) => this._onRead(buffer, length),
    });
    this._socket.setTimeout(_request.timeoutMs, () => this._socket.destroy(new AssetTimeoutError("The asset host did not answer in time")));
    this._socket.on("error", (error) => (this._error ??= error));
    this._socket.once("close", () => this._onClose());
    this._socket.write(requestBytes(_request));
    if (_request.signal.aborted) this.cancel(reasonOf(_request.signal));
    else _request.signal.addEventListener("abort", this._onAbort, { once: true });
  }

  /** Ends the download (the connection is closed). */
  cancel(reason: Error = new Error("cancelled")): void {
    if (!this._done) this._socket.destroy(reason);
  }

  /**
   * Writes the body into a Node response and ends it, with backpressure; a failure mid-body
   * breaks the response rather than ending it short, and the client leaving ends the download.
   */
  writeTo(res: Writable): Promise<void> {
    return new Promise((resolve) => {
      const drained = () => {
        this._held = false;
        this._resumeReading();
      };
      const left = () => this.cancel(new Error("The client went away"));
      const settle = () => {
        res.off("drain", drained);
        res.off("close", left);
        resolve();
      };
      res.on("drain", drained);
      res.once("close", left);
      this._take({
        write: (bytes, written) => res.write(bytes, written),
        end: () => {
          res.end();
          settle();
        },
        fail: () => {
          res.destroy();
          settle();
        },
      });
    });
  }

  /** The body as a web stream: each pull takes what one read brought (copied: the read buffers are used again). */
  webStream(): ReadableStream<Uint8Array> {
    let taken = false;
    return new ReadableStream<Uint8Array>(
      {
        pull: (stream) => {
          if (taken) {
            this._held = false;
            return this._resumeReading();
          }
          taken = true;
          this._take({
            write: (bytes, written) => {
              stream.enqueue(new Uint8Array(bytes));
              written?.();
              return false;
            },
            end: () => stream.close(),
            fail: (error) => stream.error(error),
          });
        },
        cancel: () => this.cancel(),
      },
      { highWaterMark: 0 },
    );
  }

  /** One read into `buffer`; returns false to pause reading. */
  private _onRead(buffer: Buffer, length: number): boolean {
    if (this._done) return false;
    try {
      let bytes: Buffer | null = buffer.subarray(0, length);
      let own: Buffer | null = buffer;
      if (this._headBytes) {
        // The head is copied out (it is small and read once); the read buffer is free at once.
        bytes = this._readHead(bytes);
        this._release(buffer);
        own = null;
      }
      if (!this._framing) return true;
      const slices: Buffer[] = [];
      if (bytes) this._framing.feed(bytes, (slice) => slices.push(slice));
      this._deliver(slices, own);
      // (An empty body is whole with its head.)
      if (this._framing.complete) this._finish("ended");
    } catch (error) {
      this._socket.destroy(error as Error);
      return false;
    }
    // The next read's buffer is taken from the pool when this returns: at least one must stay.
    if (!this._done && !this._held && this._free.length > 1) return true;
    this._pauseReading();
    return false;
  }

  /** Adds `bytes` to the head; once it is whole, resolves it and returns the bytes after it (maybe none). */
  private _readHead(bytes: Buffer): Buffer | null {
    let all = Buffer.concat([this._headBytes!, bytes]);
    for (;;) {
      const end = headEnd(all);
      if (end < 0) {
        if (all.length > MAX_HEAD_BYTES) throw new MalformedAnswerError("The asset host's answer head is too long");
        this._headBytes = all;
        return null;
      }
      const head = parseHead(all.subarray(0, end - 4));
      all = all.subarray(end);
      // An interim answer (100 Continue, 103 Early Hints) is followed by the real one.
      if (head.status >= 100 && head.status < 200 && head.status !== 101) continue;
      if (head.status < 200) throw new MalformedAnswerError("The asset host switched protocols");
      this._headBytes = null;
      this._framing = BodyFraming.of(this._request.method, head.status, head.headers);
      // A body whose end its framing marks must not be announced with a length of another framing.
      if (!this._framing.delimitsItself) delete head.headers["content-length"];
      this._resolveHead(head);
      return all.length ? all : null;
    }
  }

  private _deliver(slices: Buffer[], buffer: Buffer | null): void {
    if (!slices.length) return this._release(buffer);
    if (!this._sink) {
      this._waiting.push({ slices, buffer });
      this._held = true;
      return;
    }
    slices.forEach((slice, i) => {
      // Writes finish in order: the buffer is free once its last slice is written.
      const written = i === slices.length - 1 ? () => this._release(buffer) : undefined;
      if (!this._sink!.write(slice, written)) this._held = true;
    });
  }

  /** Hands the body to `sink`: what came already, then the rest as it comes. */
  private _take(sink: Sink): void {
    this._sink = sink;
    this._held = false;
    for (const waiting of this._waiting.splice(0)) this._deliver(waiting.slices, waiting.buffer);
    if (this._done === "ended") return sink.end();
    if (this._done) return sink.fail(this._done);
    this._resumeReading();
  }

  private _release(buffer: Buffer | null): void {
    if (!buffer) return;
    this._free.push(buffer);
    this._resumeReading();
  }

  private _pauseReading(): void {
    this._reading = false;
    // pause() as well as returning false from the read: a paused socket is what resume() restarts.
    this._socket.pause();
  }

  private _resumeReading(): void {
    if (this._reading || this._done || this._held || this._free.length === 0) return;
    this._reading = true;
    this._socket.resume();
  }

  private _onClose(): void {
    if (this._headBytes) {
      const error = this._error ?? new Error("The asset host closed the connection before answering");
      this._rejectHead(error);
      return this._finish(error);
    }
    // Closed by us (cancelled, timed out) or by a failure: never a whole body, whatever its framing.
    if (!this._error && this._framing!.closed()) return this._finish("ended");
    this._finish(this._error ?? new Error("The asset host closed the connection mid-file"));
  }

  private _finish(outcome: "ended" | Error): void {
    if (this._done) return;
    this._done = outcome;
    this._request.signal.removeEventListener("abort", this._onAbort);
    // One request per connection: it is closed once the body is whole.
    if (outcome === "ended") this._socket.destroy();
    if (!this._sink) return;
    if (outcome === "ended") this._sink.end();
    else this._sink.fail(outcome);
  }

  private readonly _onAbort = () => this.cancel(reasonOf(this._request.signal));
}

type OnRead = { buffer: () => Buffer; callback: (length: number, buffer: Buffer) => boolean };

function connectTo(url: URL, lookup: LookupFunction | undefined, onread: OnRead): Socket {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const tls = url.protocol === "https:";
  const port = Number(url.port) || (tls ? 443 : 80);
  const options = { host, port, onread, ...(lookup ? { lookup } : {}) };
  return tls ? tlsConnect({ ...options, ...(isIP(host) ? {} : { servername: host }), ALPNProtocols: ["http/1.1"] }) : netConnect(options);
}

/** The request, one per connection; identity encoding, so that the length and ranges the browser sees are the file's own. */
function requestBytes(r: AssetRequest): string {
  const lines = [`${r.method} ${r.url.pathname}${r.url.search} HTTP/1.1`, `host: ${r.url.host}`, "connection: close", "accept-encoding: identity"];
  for (const name in r.headers) lines.push(`${name}: ${r.headers[name]}`);
  return `${lines.join("\r\n")}\r\n\r\n`;
}

function reasonOf(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error("aborted");
}
