/**
 * The upstream client on Node: undici's Agent, a pool of kept-alive connections per
 * upstream origin, and a request dispatched with a handler that gathers the response's
 * bytes, so a call costs no stream, no promise per chunk and no AbortSignal (less CPU per
 * status poll than Node's own `http.request`). Idle connections close before
 * the server's announced keep-alive timeout; a GET or HEAD whose connection fails before
 * any response (a kept-alive connection the server had closed) is sent once more.
 */
import { Agent, type Dispatcher } from "undici";
import { egressAgent, isLoopbackHost } from "../egress-agent.ts";
import { brotliDecompress, gunzip, inflate, type InputType, type ZlibOptions } from "node:zlib";
import { joinedHeader } from "../proxy-request.ts";
import type { UpstreamResponse, UpstreamClient, UpstreamRequest } from "./upstream-client.ts";

/** Idle connections kept at most this long (less when the server announces less). */
const IDLE_MS = 15_000;

class UpstreamTimeoutError extends Error {
  override name = "TimeoutError";
}

/** A client of `upstream`: through the environment's egress proxy, if any, unless it is on loopback (egress-agent.ts). */
export function nodeUpstreamClient(upstream: URL): UpstreamClient {
  // The proxy's own whole-exchange timeout bounds every call; undici's per-phase ones would only fire later.
  const options: Agent.Options = { keepAliveTimeout: IDLE_MS, keepAliveMaxTimeout: IDLE_MS, headersTimeout: 0, bodyTimeout: 0 };
  const agent = isLoopbackHost(upstream) ? new Agent(options) : egressAgent(options);
  return {
    send(r) {
      return exchange(agent, r).catch((error: unknown) => {
        if (!(error instanceof NoResponseError) || (r.method !== "GET" && r.method !== "HEAD")) throw unwrapped(error);
        return exchange(agent, r).catch((again: unknown) => {
          throw unwrapped(again);
        });
      });
    },
    close() {
      void agent.destroy();
    },
  };
}

/** The connection failed before any response came: safe to send a GET again. */
class NoResponseError extends Error {
  constructor(readonly original: unknown) {
    super("The upstream connection failed before a response");
  }
}

const unwrapped = (error: unknown) => (error instanceof NoResponseError ? error.original : error);

function exchange(agent: Dispatcher, r: UpstreamRequest): Promise<UpstreamResponse> {
  // "http://host:port/path?query": split without a URL object, which costs more than the rest of this.
  const pathStart = r.url.indexOf("/", r.url.indexOf("//") + 2);
  const options: Dispatcher.DispatchOptions = {
    origin: r.url.slice(0, pathStart),
    path: r.url.slice(pathStart),
    method: r.method,
    headers: { "accept-encoding": "gzip, deflate, br", ...r.headers },
    body: r.body,
  };
  return new Promise((resolve, reject) => agent.dispatch(options, new ResponseGatherer(r, resolve, reject)));
}

/** Gathers one response: its status, headers and bytes up to `maxBytes`, within `timeoutMs`. */
class ResponseGatherer implements Dispatcher.DispatchHandler {
  private _controller: Dispatcher.DispatchController | null = null;
  /** Why the exchange was ended before it started (the timeout, the caller's signal). */
  private _endedEarly: Error | null = null;
  private _settled = false;
  private _status = 0;
  private _headers: Record<string, string | string[] | undefined> = {};
  private _chunks: Buffer[] = [];
  private _size = 0;
  private _tooLarge = false;
  private readonly _timer: NodeJS.Timeout;

  constructor(
    private readonly _request: UpstreamRequest,
    private readonly _resolve: (response: UpstreamResponse) => void,
    private readonly _reject: (error: unknown) => void,
  ) {
    this._timer = setTimeout(() => this._end(new UpstreamTimeoutError("The upstream did not answer in time")), _request.timeoutMs);
    const signal = _request.signal;
    if (signal?.aborted) this._end(reasonOf(signal));
    else signal?.addEventListener("abort", this._onAbort, { once: true });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this._controller = controller;
    if (this._endedEarly) controller.abort(this._endedEarly);
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    this._status = statusCode;
    this._headers = headers;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this._tooLarge) return;
    this._size += chunk.byteLength;
    if (this._size <= this._request.maxBytes) return void this._chunks.push(chunk);
    // Too large: the rest is not read, so the connection is not reused.
    this._tooLarge = true;
    this._chunks = [];
    controller.abort(new Error("response too large"));
    this._respond(null);
  }

  onResponseEnd(): void {
    const bytes = this._chunks.length === 1 ? this._chunks[0]! : Buffer.concat(this._chunks, this._size);
    const encoding = joinedHeader(this._headers["content-encoding"])?.trim().toLowerCase();
    const decode = bytes.byteLength ? DECODERS[encoding ?? ""] : undefined;
    if (!decode) return this._respond(bytes);
    // A decoded size past maxBytes (a decompression bomb) is too large, as a long response is.
    decode(bytes, { maxOutputLength: this._request.maxBytes }, (error, decoded) => {
      if (!error) this._respond(decoded);
      else if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") this._respond(null);
      else this._fail(error);
    });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this._tooLarge) return;
    const cause = this._endedEarly ?? error;
    this._fail(this._status === 0 && !this._endedEarly ? new NoResponseError(cause) : cause);
  }

  private readonly _onAbort = () => this._end(reasonOf(this._request.signal!));

  /** Ends the exchange from our side: at once if it started, else as soon as it does. */
  private _end(reason: Error): void {
    if (this._settled || this._endedEarly) return;
    this._endedEarly = reason;
    if (this._controller) this._controller.abort(reason);
    else this._fail(reason);
  }

  private _respond(bytes: Uint8Array | null): void {
    if (this._settle()) this._resolve({ status: this._status, header: (name) => joinedHeader(this._headers[name]), bytes });
  }

  private _fail(error: unknown): void {
    if (this._settle()) this._reject(error);
  }

  private _settle(): boolean {
    if (this._settled) return false;
    this._settled = true;
    clearTimeout(this._timer);
    this._request.signal?.removeEventListener("abort", this._onAbort);
    return true;
  }
}

type Decoder = (input: InputType, options: ZlibOptions, callback: (error: Error | null, result: Buffer) => void) => void;
const DECODERS: Record<string, Decoder> = { gzip: gunzip, "x-gzip": gunzip, deflate: inflate, br: brotliDecompress };

function reasonOf(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error("aborted");
}
