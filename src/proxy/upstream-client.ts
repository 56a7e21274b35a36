/**
 * How the proxy calls the Skybox API. An answer is read whole, up to a limit: API answers
 * are records and pages of them, which the proxy parses and rewrites. Redirects are never
 * followed (they would carry the key). By default Node's HTTP client on kept-alive
 * connections (node-upstream.ts); a `fetch` given in the options is used instead.
 */
import { readStreamLimited } from "./request-body.ts";

export interface UpstreamRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** Ends the call early (calls the proxy makes on its own while answering one request end with it). */
  signal?: AbortSignal;
  /** For the whole exchange, answer read included. */
  timeoutMs: number;
  /** Largest answer body read; past it the answer's `bytes` is null. */
  maxBytes: number;
}

export interface UpstreamAnswer {
  status: number;
  /** A header of the answer, repeated values joined with ", ". */
  header(name: string): string | null;
  /** The whole body (decoded if compressed), or null past `maxBytes`. */
  bytes: Uint8Array | null;
}

/** Rejects when the upstream cannot be reached; with an error named "TimeoutError" when it took too long. */
export interface UpstreamClient {
  send(request: UpstreamRequest): Promise<UpstreamAnswer>;
  /** Closes the kept-alive connections. */
  close(): void;
}

/** An upstream client on a Fetch-API `fetch`. */
export function fetchUpstreamClient(fetch: typeof globalThis.fetch): UpstreamClient {
  return {
    async send(r) {
      const answer = await fetch(r.url, {
        method: r.method,
        headers: r.headers,
        body: r.body as BodyInit | undefined,
        redirect: "manual",
        signal: r.signal ? AbortSignal.any([r.signal, AbortSignal.timeout(r.timeoutMs)]) : AbortSignal.timeout(r.timeoutMs),
      });
      return { status: answer.status, header: (name) => answer.headers.get(name), bytes: await readStreamLimited(answer.body, r.maxBytes) };
    },
    close() {},
  };
}
