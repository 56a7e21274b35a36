/**
 * What the proxy reads of a request: its method, absolute URL, headers by name, the signal
 * of the client going away, and the body once. A Fetch-API `Request` is one, for every
 * runtime; the Node adapter gives one straight from Node's request (node-request.ts)
 * without building a Request, whose headers, signal and body stream cost more than the rest
 * of a status poll's handling.
 */
export interface ProxyRequest {
  readonly method: string;
  /** Absolute: `http://host/skybox/api/v1/...`. */
  readonly url: string;
  readonly headers: HeaderReader;
  /** Aborts when the client goes away. */
  readonly signal: AbortSignal;
  /** Read at most once; null for GET and HEAD. */
  readonly body: ReadableStream<Uint8Array> | null;
  /** The same request as a Fetch-API Request (a view that is not one makes it when asked). */
  toFetchRequest?(): Request;
}

/** One header by its lower-case name (repeated values joined with ", "), as `Headers#get`. */
export interface HeaderReader {
  get(name: string): string | null;
}

/** A header of Node's parsed form (`IncomingMessage#headers`, undici's) as HeaderReader gives it. */
export function joinedHeader(value: string | string[] | undefined): string | null {
  return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
}

/** The request as a Fetch-API Request, for the app's own code (its `identify` hook). */
export function fetchRequestOf(request: ProxyRequest): Request {
  if (request instanceof Request) return request;
  if (request.toFetchRequest) return request.toFetchRequest();
  throw new TypeError("babylon-skybox proxy: this request has no Fetch-API form to give the app's code");
}

/** A request the proxy makes on its own (no client, no body), as forwarding reads one. */
export function ownRequest(method: string, url: string, headers: Record<string, string>, signal?: AbortSignal): ProxyRequest {
  return { method, url, headers: new Headers(headers), signal: signal ?? NEVER_ABORTED, body: null };
}

/** The same request with a body read already, to forward again. */
export function withBody(request: ProxyRequest, bytes: Uint8Array): ProxyRequest {
  return {
    method: request.method,
    url: request.url,
    headers: request.headers,
    signal: request.signal,
    body: new Response(bytes as Uint8Array<ArrayBuffer>).body,
  };
}

const NEVER_ABORTED = new AbortController().signal;
