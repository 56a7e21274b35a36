/**
 * `GET {basePath}/assets/...`: streams a texture or mesh file to the browser from its own
 * origin. Only hosts the upstream named in a record that passed through the proxy are
 * reachable, private addresses only when they are the upstream's own host (isUpstreamHost), and the key is
 * never sent along. Range requests pass through; the files are content-addressed, so a
 * successful answer may be cached for good.
 */
import { isUpstreamHost, PrivateAddressError } from "./address-check.ts";
import { fetchAsset } from "./asset-fetch.ts";
import { assetTarget, type AssetHosts } from "./asset-urls.ts";
import { MalformedAnswerError } from "./http1-head.ts";
import { assetRequestHeaders, assetResponseHeaders } from "./header-filter.ts";
import { ProxyError } from "./ProxyError.ts";
import type { ProxyRequest } from "./proxy-request.ts";

export interface AssetContext {
  hosts: AssetHosts;
  upstream: URL;
  basePath: string;
  timeoutMs: number;
}

const IMMUTABLE = "public, max-age=31536000, immutable";
/** Types a browser would run if served from our origin; files of the API are never these. */
const ACTIVE_TYPE = /html|xml|javascript|ecmascript|svg/i;

export async function serveAsset(ctx: AssetContext, request: ProxyRequest, rest: string): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD") throw new ProxyError(405, "Assets are read with GET", { allow: "GET, HEAD" });
  const target = assetTarget(rest, new URL(request.url).search);
  if (!target) throw new ProxyError(400, `Name the file as ${ctx.basePath}/assets/{http|https}/{host}/{path} or ${ctx.basePath}/assets?url={encoded URL}`);
  // The upstream's own files are always its to name: a record pushed to the browser by Pusher
  // (not through the proxy) may be the first to name them.
  if (!ctx.hosts.has(target) && !isUpstreamHost(target, ctx.upstream)) throw new ProxyError(403, "This file's host is not one the Skybox API has named");
  let upstream: Response;
  try {
    upstream = await fetchAsset(target, {
      method: request.method,
      headers: assetRequestHeaders(request.headers),
      allowPrivate: isUpstreamHost(target, ctx.upstream),
      signal: request.signal,
      timeoutMs: ctx.timeoutMs,
    });
  } catch (error) {
    if (error instanceof ProxyError) throw error;
    if (error instanceof PrivateAddressError) throw new ProxyError(403, "This file's host is a private address");
    if (error instanceof MalformedAnswerError) throw new ProxyError(502, error.message);
    throw new ProxyError(502, "The file's host could not be reached");
  }
  const headers = new Headers(assetResponseHeaders((name) => upstream.headers.get(name)));
  const ok = upstream.status === 200 || upstream.status === 206 || upstream.status === 304;
  headers.set("cache-control", ok ? IMMUTABLE : "no-store");
  if (ACTIVE_TYPE.test(headers.get("content-type") ?? "")) headers.set("content-type", "application/octet-stream");
  headers.set("x-content-type-options", "nosniff");
  headers.set("content-security-policy", "default-src 'none'; sandbox");
  return new Response(upstream.body, { status: upstream.status, headers });
}
