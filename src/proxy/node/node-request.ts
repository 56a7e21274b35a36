/**
 * A ProxyRequest over Node's IncomingMessage: headers looked up in place, the signal and
 * the body stream made only when read (a status poll reads neither). `toFetchRequest()`
 * gives the same request as a Fetch-API Request, for code that wants one (an app's
 * `identify` hook, another Fetch handler).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { joinedHeader, type HeaderReader, type ProxyRequest } from "../proxy-request.ts";

export class NodeProxyRequest implements ProxyRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: HeaderReader;
  private _signal: AbortSignal | null = null;
  private _body: ReadableStream<Uint8Array> | null | undefined;
  private _fetchRequest: Request | null = null;

  constructor(
    private readonly _incoming: IncomingMessage,
    private readonly _outgoing: ServerResponse,
  ) {
    this.method = _incoming.method ?? "GET";
    this.url = absoluteUrl(_incoming);
    this.headers = new IncomingHeaders(_incoming);
  }

  get signal(): AbortSignal {
    if (!this._signal) {
      const controller = new AbortController();
      // Closed before the response was written whole: the client went away.
      this._outgoing.once("close", () => {
        if (!this._outgoing.writableFinished) controller.abort();
      });
      this._signal = controller.signal;
    }
    return this._signal;
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this._body === undefined) {
      this._body = this.method === "GET" || this.method === "HEAD" ? null : (Readable.toWeb(this._incoming) as ReadableStream<Uint8Array>);
    }
    return this._body;
  }

  /** Made once: its body is this request's one body stream. */
  toFetchRequest(): Request {
    if (!this._fetchRequest) {
      const headers = new Headers();
      const raw = this._incoming.rawHeaders;
      for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
      const body = this.body;
      this._fetchRequest = new Request(this.url, {
        method: this.method,
        headers,
        signal: this.signal,
        ...(body ? { body, duplex: "half" } : {}),
      });
    }
    return this._fetchRequest;
  }
}

/** The request's URL as a browser would write it; an absolute-form target is taken as it is. */
function absoluteUrl(incoming: IncomingMessage): string {
  const target = incoming.url ?? "/";
  if (target.startsWith("http://") || target.startsWith("https://")) return target;
  const scheme = (incoming.socket as { encrypted?: boolean }).encrypted ? "https" : "http";
  // No Host (HTTP/1.0): the proxy names itself; a Host that is no host fails the proxy's URL parse (a 400).
  return `${scheme}://${incoming.headers.host || "127.0.0.1"}${target}`;
}

class IncomingHeaders implements HeaderReader {
  constructor(private readonly _incoming: IncomingMessage) {}

  get(name: string): string | null {
    return joinedHeader(this._incoming.headers[name.toLowerCase()]);
  }
}
