/**
 * Fetches the files of the asset passthrough on undici: kept-alive connections per host,
 * the body a Node stream with back-pressure (undici pauses the host's connection while the
 * client takes nothing). Only public addresses are reached unless the file is on the
 * upstream's own host: a `lookup` hook checks the addresses connected to (address-check.ts),
 * so a name that resolves differently on a second lookup (DNS rebinding) is caught too.
 * Redirects are followed only within the file's own origin.
 *
 * Through an egress proxy (egress-agent.ts) the proxy resolves the name, not us: the
 * target's addresses are checked before the request is dispatched, and the egress proxy,
 * the network's own boundary, makes the connection.
 */
import type { IncomingHttpHeaders } from "node:http";
import { isIP } from "node:net";
import { pipeline, type Readable } from "node:stream";
import { createGunzip, createInflate } from "node:zlib";
import { Agent, EnvHttpProxyAgent, type Dispatcher } from "undici";
import { checkPublicHost, isPrivateAddress, PrivateAddressError, publicOnlyLookup } from "./address-check.ts";
import { isLoopbackHost, namesEgressProxy } from "../egress-agent.ts";
import { ProxyError } from "../proxy-error.ts";
import { joinedHeader } from "../proxy-request.ts";

export interface AssetRequest {
  url: URL;
  method: "GET" | "HEAD";
  /** Names and values already chosen by the header filter. */
  headers: Record<string, string>;
  /** The upstream's own host may be private (the local service on 127.0.0.1). */
  allowPrivate: boolean;
  /** Aborts when the client goes away. */
  signal: AbortSignal;
}

/** A file's status and headers, and its body (decoded of any transfer coding), or null for none. */
export interface AssetSource {
  status: number;
  headers: IncomingHttpHeaders;
  body: Readable | null;
}

export class AssetTimeoutError extends Error {
  override name = "AssetTimeoutError";
}

/** An asset host's response the proxy cannot pass on as it is. */
export class MalformedAssetError extends Error {
  override name = "MalformedAssetError";
}

const MAX_REDIRECTS = 3;
/** Longest response head read (undici refuses a longer one). */
const MAX_HEAD_BYTES = 64 * 1024;
/** Idle connections to asset hosts are kept this long. */
const IDLE_MS = 4_000;
/** What may not be in a header value sent on: it would end the line and start another. */
const LINE_BREAK = /[\r\n\0]/;

export class AssetClient {
  /** Public hosts, reached directly; the lookup refuses private addresses. */
  private readonly _public: Dispatcher;
  /** The upstream's own host, reached directly. */
  private readonly _own: Dispatcher;
  /** The same two through the environment's egress proxy; null when it names none. */
  private readonly _egress: { public: Dispatcher; own: Dispatcher } | null;

  /** `timeoutMs`: the longest silence on a download (the host sending nothing, or a client taking nothing). */
  constructor(private readonly _timeoutMs: number) {
    // The watchdog below bounds the head and the body; undici's per-phase timeouts would not see a client taking nothing.
    const options: Agent.Options = { headersTimeout: 0, bodyTimeout: 0, maxHeaderSize: MAX_HEAD_BYTES, keepAliveTimeout: IDLE_MS };
    const checked: Agent.Options = { ...options, connect: { lookup: publicOnlyLookup } };
    this._public = new Agent(checked);
    this._own = new Agent(options);
    this._egress = namesEgressProxy() ? { public: new EnvHttpProxyAgent(checked), own: new EnvHttpProxyAgent(options) } : null;
  }

  /** The file at `request.url`: rejects with a ProxyError, PrivateAddressError, AssetTimeoutError or undici's error. */
  async fetch(request: AssetRequest, redirects = 0): Promise<AssetSource> {
    const { url } = request;
    const host = url.hostname.replace(/^\[|\]$/g, "");
    if (!request.allowPrivate && isIP(host) && isPrivateAddress(host)) throw new PrivateAddressError(`${host} is a private address`);
    for (const name in request.headers)
      if (LINE_BREAK.test(request.headers[name]!)) throw new ProxyError(400, `The ${name} header holds a line break`);
    const egress = this._egress && !isLoopbackHost(url) ? this._egress : null;
    if (egress && !request.allowPrivate && !isIP(host)) await checkPublicHost(host);
    const dispatcher = (egress ?? { public: this._public, own: this._own })[request.allowPrivate ? "own" : "public"];

    const watchdog = new Watchdog(this._timeoutMs, request.signal);
    let response: Dispatcher.ResponseData;
    try {
      response = await dispatcher.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: request.method,
        // Identity, so that the length and ranges the browser sees are the file's own.
        headers: { ...request.headers, "accept-encoding": "identity" },
        signal: watchdog.signal,
      });
    } catch (error) {
      watchdog.stop();
      throw error;
    }
    const { statusCode: status, headers, body } = response;
    const location = joinedHeader(headers.location);
    if ((status >= 300 && status < 400 && location) || request.method === "HEAD" || status === 204 || status === 304) {
      watchdog.stop();
      // Read off (up to undici's small limit) so the connection can serve the next request.
      body.dump().catch(() => {});
      if (!location || status < 300 || status >= 400) return { status, headers, body: null };
      const next = new URL(location, url);
      if (next.origin !== url.origin || redirects >= MAX_REDIRECTS) throw new ProxyError(502, "The asset host redirected elsewhere");
      return this.fetch({ ...request, url: next }, redirects + 1);
    }
    watchdog.follow(body);
    try {
      return { status, headers, body: decodeTransferCodings(body, joinedHeader(headers["transfer-encoding"])) };
    } catch (error) {
      body.destroy();
      throw error;
    }
  }

  close(): void {
    for (const dispatcher of [this._public, this._own, this._egress?.public, this._egress?.own]) void dispatcher?.destroy();
  }
}

/**
 * Ends a download after `timeoutMs` without a byte: the host sending nothing, or the client
 * taking nothing (undici's own body timeout sleeps while the client holds the body paused).
 */
class Watchdog {
  private readonly _controller = new AbortController();
  private readonly _timer: NodeJS.Timeout;

  constructor(
    timeoutMs: number,
    private readonly _client: AbortSignal,
  ) {
    this._timer = setTimeout(() => this._controller.abort(new AssetTimeoutError("The asset host did not answer in time")), timeoutMs);
    if (_client.aborted) this._onClientGone();
    else _client.addEventListener("abort", this._onClientGone, { once: true });
  }

  get signal(): AbortSignal {
    return this._controller.signal;
  }

  /** Restarts the wait at each chunk of `body`, and stops when it closes. */
  follow(body: Readable): void {
    const refresh = () => this._timer.refresh();
    // A "data" listener would set the body flowing before anyone takes it: it is added once someone does.
    body.once("resume", () => body.on("data", refresh));
    body.once("close", () => this.stop());
  }

  stop(): void {
    clearTimeout(this._timer);
    this._client.removeEventListener("abort", this._onClientGone);
  }

  private readonly _onClientGone = () =>
    this._controller.abort(this._client.reason instanceof Error ? this._client.reason : new Error("The client went away"));
}

type Decoder = () => NodeJS.ReadWriteStream;
/** Transfer codings a host may apply besides chunked (which undici takes off). */
const DECODERS: Record<string, Decoder> = { gzip: createGunzip, "x-gzip": createGunzip, deflate: createInflate };

/**
 * The body without its transfer codings: they belong to the host's connection, not to the
 * file (RFC 9112 §7), and the client's connection has its own.
 */
function decodeTransferCodings(body: Readable, codings: string | null): Readable {
  if (!codings) return body;
  const applied = codings
    .split(",")
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c && c !== "chunked");
  let decoded: Readable = body;
  for (const coding of applied.reverse()) {
    const decoder = DECODERS[coding];
    if (!decoder) throw new MalformedAssetError(`The asset host's response has a transfer coding the proxy cannot read (${coding})`);
    decoded = pipeline(decoded, decoder(), () => {}) as unknown as Readable;
  }
  return decoded;
}
