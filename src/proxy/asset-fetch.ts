/**
 * Fetches an asset with Node's HTTP client rather than fetch, because only a `lookup`
 * hook can check the address actually connected to (see address-check.ts). Redirects are
 * followed only within the asset's own origin; the body streams through untouched.
 */
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { isPrivateAddress, PrivateAddressError, publicOnlyLookup } from "./address-check.ts";
import { ProxyError } from "./ProxyError.ts";
import { joinedHeader } from "./proxy-request.ts";
import { nodeStreamBody } from "./response-bodies.ts";

export interface AssetFetchOptions {
  method: "GET" | "HEAD";
  headers: Record<string, string>;
  /** The upstream's own host may be private (the local service on 127.0.0.1). */
  allowPrivate: boolean;
  signal: AbortSignal;
  timeoutMs: number;
}

const MAX_REDIRECTS = 3;

export async function fetchAsset(url: URL, options: AssetFetchOptions, redirects = 0): Promise<Response> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!options.allowPrivate && isIP(host) && isPrivateAddress(host)) throw new PrivateAddressError(`${host} is a private address`);
  const res = await request(url, options);
  const status = res.statusCode ?? 502;
  const location = res.headers.location;
  if (status >= 300 && status < 400 && location) {
    res.destroy();
    const next = new URL(location, url);
    if (next.origin !== url.origin || redirects >= MAX_REDIRECTS) throw new ProxyError(502, "The asset host redirected elsewhere");
    return fetchAsset(next, options, redirects + 1);
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    const joined = joinedHeader(value);
    if (joined !== null) headers.set(name, joined);
  }
  const empty = options.method === "HEAD" || status === 204 || status === 304;
  if (empty) res.resume();
  // Read only when pulled; the Node adapter pipes `res` to the client itself.
  const body = empty ? null : nodeStreamBody(res);
  return new Response(body, { status: status < 200 || status > 599 ? 502 : status, headers });
}

function request(url: URL, options: AssetFetchOptions): Promise<http.IncomingMessage> {
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(url, {
      method: options.method,
      // identity: the length and ranges the browser sees are those of the file itself.
      headers: { ...options.headers, "accept-encoding": "identity" },
      signal: options.signal,
      agent: false,
      ...(options.allowPrivate ? {} : { lookup: publicOnlyLookup }),
    });
    req.setTimeout(options.timeoutMs, () => req.destroy(new ProxyError(504, "The asset host did not answer in time")));
    req.once("response", resolve);
    req.once("error", reject);
    req.end();
  });
}
