/**
 * `GET {basePath}/assets/...`: streams a texture or mesh file to the browser from its own
 * origin. Only hosts the upstream named in a record that passed through the proxy are
 * reachable, private addresses only when they are the upstream's own host (isUpstreamHost),
 * and the key is never sent along. Range requests pass through; the files are
 * content-addressed, so a successful response may be cached for good.
 */
import { errors } from "undici";
import { isUpstreamHost, PrivateAddressError } from "./address-check.ts";
import { AssetTimeoutError, MalformedAssetError, type AssetClient, type AssetSource } from "./asset-client.ts";
import { assetTarget, type AssetHosts } from "./passthrough-urls.ts";
import { assetRequestHeaders, assetResponseHeaders } from "../header-filter.ts";
import { ProxyError } from "../proxy-error.ts";
import { joinedHeader, type ProxyRequest } from "../proxy-request.ts";
import { StreamResponse } from "../stream-response.ts";

export interface AssetContext {
  hosts: AssetHosts;
  client: AssetClient;
  upstream: URL;
  basePath: string;
}

const IMMUTABLE = "public, max-age=31536000, immutable";
/** Types a browser would run if served from our origin; files of the API are never these. */
const ACTIVE_TYPE = /html|xml|javascript|ecmascript|svg/i;

export async function serveAsset(ctx: AssetContext, request: ProxyRequest, rest: string): Promise<StreamResponse> {
  if (request.method !== "GET" && request.method !== "HEAD") throw new ProxyError(405, "Assets are read with GET", { allow: "GET, HEAD" });
  const target = assetTarget(rest, new URL(request.url).search);
  if (!target)
    throw new ProxyError(
      400,
      `Name the file as ${ctx.basePath}/assets/{http|https}/{host}/{path} or ${ctx.basePath}/assets?url={encoded URL}`,
    );
  // The upstream's own files are always its to name: a record pushed to the browser by Pusher
  // (not through the proxy) may be the first to name them.
  if (!ctx.hosts.has(target) && !isUpstreamHost(target, ctx.upstream))
    throw new ProxyError(403, "This file's host is not one the Skybox API has named");
  let source: AssetSource;
  try {
    source = await ctx.client.fetch({
      url: target,
      method: request.method,
      headers: assetRequestHeaders(request.headers),
      allowPrivate: isUpstreamHost(target, ctx.upstream),
      signal: request.signal,
    });
  } catch (error) {
    throw refusalOf(error);
  }
  try {
    return new StreamResponse(source.status > 599 ? 502 : source.status, responseHeaders(source), source.body);
  } catch {
    source.body?.destroy();
    throw new ProxyError(502, "The asset host's response has a header the proxy cannot pass on");
  }
}

/** The headers the browser gets: the host's allowed ones, a long cache for a file, and no way to run it from our origin. */
function responseHeaders(source: AssetSource): Headers {
  const headers = new Headers(assetResponseHeaders((name) => joinedHeader(source.headers[name])));
  // A transfer coding was taken off (asset-client.ts): the length the host sent was the coded one.
  if (source.headers["transfer-encoding"] !== undefined) headers.delete("content-length");
  const ok = source.status === 200 || source.status === 206 || source.status === 304;
  headers.set("cache-control", ok ? IMMUTABLE : "no-store");
  if (ACTIVE_TYPE.test(headers.get("content-type") ?? "")) headers.set("content-type", "application/octet-stream");
  headers.set("x-content-type-options", "nosniff");
  headers.set("content-security-policy", "default-src 'none'; sandbox");
  return headers;
}

/** Why the file cannot be served, as the sentence the browser reads. */
function refusalOf(error: unknown): ProxyError {
  if (error instanceof ProxyError) return error;
  if (error instanceof PrivateAddressError) return new ProxyError(403, "This file's host is a private address");
  if (error instanceof AssetTimeoutError) return new ProxyError(504, "The asset host did not answer in time");
  if (error instanceof MalformedAssetError) return new ProxyError(502, error.message);
  if (error instanceof errors.HTTPParserError) return new ProxyError(502, "The asset host's response is not valid HTTP/1.1");
  if (error instanceof errors.HeadersOverflowError) return new ProxyError(502, "The asset host's response head is too long");
  return new ProxyError(502, "The file's host could not be reached");
}
