/**
 * Which headers cross the proxy. Both directions use allow-lists: a browser's cookies,
 * credentials, `x-api-key`, hop-by-hop and forwarding headers never reach the upstream, and
 * the upstream's cookies, server banners and CORS headers never reach the browser.
 */
import type { HeaderReader } from "./proxy-request.ts";

/** Request headers forwarded upstream with API calls. */
const REQUEST_HEADERS = ["accept", "accept-language", "content-type", "if-none-match", "if-modified-since", "user-agent"];

/** Request headers forwarded to asset hosts. */
const ASSET_REQUEST_HEADERS = ["accept", "if-none-match", "if-modified-since", "if-range", "range", "user-agent"];

/** Response headers passed back from API calls (the body is re-encoded, so no length or encoding). */
const RESPONSE_HEADERS = [
  "cache-control",
  "content-type",
  "etag",
  "last-modified",
  "retry-after",
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "x-ratelimit-reset",
];

/** Response headers passed back from asset hosts (the body is streamed with its content coding, if any). */
const ASSET_RESPONSE_HEADERS = [
  "accept-ranges",
  "content-encoding",
  "content-length",
  "content-range",
  "content-type",
  "etag",
  "last-modified",
];

/** Reads one header by its lower-case name: `Headers#get`, or an upstream response's. */
export type HeaderLookup = (name: string) => string | null;

function pick(get: HeaderLookup, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = get(name);
    if (value !== null) out[name] = value;
  }
  return out;
}

export const apiRequestHeaders = (from: HeaderReader) => pick((name) => from.get(name), REQUEST_HEADERS);
export const assetRequestHeaders = (from: HeaderReader) => pick((name) => from.get(name), ASSET_REQUEST_HEADERS);
export const apiResponseHeaders = (get: HeaderLookup) => pick(get, RESPONSE_HEADERS);
export const assetResponseHeaders = (get: HeaderLookup) => pick(get, ASSET_RESPONSE_HEADERS);
