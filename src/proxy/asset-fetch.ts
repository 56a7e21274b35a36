/**
 * Fetches an asset (asset-answer.ts reads it off the socket): only public addresses unless
 * it is the upstream's own host (a `lookup` hook checks the address actually connected to,
 * see address-check.ts). Redirects are followed only within the asset's own origin; the body
 * streams through untouched.
 */
import { isIP } from "node:net";
import { isPrivateAddress, PrivateAddressError, publicOnlyLookup } from "./address-check.ts";
import { AssetAnswer, AssetTimeoutError } from "./asset-answer.ts";
import type { RawHeaders } from "./http1-head.ts";
import { ProxyError } from "./ProxyError.ts";
import { joinedHeader } from "./proxy-request.ts";
import { directBody } from "./response-bodies.ts";

export interface AssetFetchOptions {
  method: "GET" | "HEAD";
  headers: Record<string, string>;
  /** The upstream's own host may be private (the local service on 127.0.0.1). */
  allowPrivate: boolean;
  signal: AbortSignal;
  timeoutMs: number;
}

const MAX_REDIRECTS = 3;
/** What may not be in a header value sent on: it would end the line and start another. */
const LINE_BREAK = /[\r\n\0]/;

export async function fetchAsset(url: URL, options: AssetFetchOptions, redirects = 0): Promise<Response> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!options.allowPrivate && isIP(host) && isPrivateAddress(host)) throw new PrivateAddressError(`${host} is a private address`);
  for (const name in options.headers) if (LINE_BREAK.test(options.headers[name]!)) throw new ProxyError(400, `The ${name} header holds a line break`);
  const answer = new AssetAnswer({ ...options, url, ...(options.allowPrivate ? {} : { lookup: publicOnlyLookup }) });
  const { status, headers } = await answer.head.catch((error: unknown) =>
    Promise.reject(error instanceof AssetTimeoutError ? new ProxyError(504, "The asset host did not answer in time") : error),
  );
  const location = joinedHeader(headers.location);
  if (status >= 300 && status < 400 && location) {
    answer.cancel();
    const next = new URL(location, url);
    if (next.origin !== url.origin || redirects >= MAX_REDIRECTS) throw new ProxyError(502, "The asset host redirected elsewhere");
    return fetchAsset(next, options, redirects + 1);
  }
  const empty = options.method === "HEAD" || status === 204 || status === 304;
  if (empty) answer.cancel();
  return new Response(empty ? null : directBody(answer), { status: status > 599 ? 502 : status, headers: headersOf(headers) });
}

function headersOf(raw: RawHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    const joined = joinedHeader(value);
    if (joined !== null) headers.set(name, joined);
  }
  return headers;
}
