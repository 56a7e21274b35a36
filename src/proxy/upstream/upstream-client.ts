/**
 * How the proxy calls the Skybox API. A response is read whole, up to a limit: API responses
 * are records and pages of them, which the proxy parses and rewrites. Redirects are never
 * followed (they would carry the key). By default undici on kept-alive connections
 * (node-upstream.ts); a `fetch` given in the options is used instead.
 */
import { readStreamLimited } from "./api-request-body.ts";

export interface UpstreamRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** Ends the call early (calls the proxy makes on its own while responding to one request end with it). */
  signal?: AbortSignal;
  /** For the whole exchange, response read included. */
  timeoutMs: number;
  /** Largest response body read; past it the response's `bytes` is null. */
  maxBytes: number;
}

export interface UpstreamResponse {
  status: number;
  /** A header of the response, repeated values joined with ", ". */
  header: (name: string) => string | null;
  /** The whole body (decoded if compressed), or null past `maxBytes`. */
  bytes: Uint8Array | null;
}

/** Rejects when the upstream cannot be reached; with an error named "TimeoutError" when it took too long. */
export interface UpstreamClient {
  send(request: UpstreamRequest): Promise<UpstreamResponse>;
  /** Closes the kept-alive connections. */
  close(): void;
}

/** An upstream client on a Fetch-API `fetch`. */
export function fetchUpstreamClient(fetch: typeof globalThis.fetch): UpstreamClient {
  return {
    async send(r) {
      const response = await fetch(r.url, {
        method: r.method,
        headers: r.headers,
        body: r.body as BodyInit | undefined,
        redirect: "manual",
        signal: r.signal ? AbortSignal.any([r.signal, AbortSignal.timeout(r.timeoutMs)]) : AbortSignal.timeout(r.timeoutMs),
      });
      return {
        status: response.status,
        header: (name) => response.headers.get(name),
        bytes: await readStreamLimited(response.body, r.maxBytes),
      };
    },
    close() {},
  };
}
